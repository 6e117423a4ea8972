import SQLite from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";
import { commitDurably } from "./commit-durably.js";
import { commitLazily } from "./commit-lazily.js";
import type { Schema } from "./schema.js";

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.destroy());

const synchronous = async () =>
  TEST_DIALECT === "sqlite"
    ? Number((await sql<{ synchronous: number }>`pragma synchronous`.execute(test.database.db)).rows[0]?.synchronous)
    : undefined;

const settings = (names: string[]) =>
  Promise.all(
    names.map((name) =>
      commitDurably(test.database, (trx) => trx.insertInto("instance_settings").values({ name, value: "v" }).execute()),
    ),
  );

describe("commitLazily and commitDurably", () => {
  it("commit what they are given, side by side, and leave every other commit waiting for the disk (FULL)", async () => {
    const before = await synchronous();
    await Promise.all([
      settings(["a-1", "a-2", "a-3"]),
      commitLazily(test.database, (trx) =>
        trx.insertInto("instance_settings").values({ name: "b", value: "v" }).execute(),
      ),
      settings(["c-1", "c-2"]),
    ]);
    const names = await test.database.db
      .selectFrom("instance_settings")
      .select("name")
      .where("name", "in", ["a-1", "a-2", "a-3", "b", "c-1", "c-2"])
      .execute();
    expect(names).toHaveLength(6);
    if (TEST_DIALECT === "sqlite") expect(await synchronous()).toBe(before);
    if (TEST_DIALECT === "sqlite") expect(before).toBe(2);
  });

  it("roll back whole when the work throws, and still restore the setting", async () => {
    await expect(
      commitLazily(test.database, async (trx) => {
        await trx.insertInto("instance_settings").values({ name: "rolled-back", value: "v" }).execute();
        throw new Error("half way");
      }),
    ).rejects.toThrow("half way");
    const row = await test.database.db
      .selectFrom("instance_settings")
      .select("name")
      .where("name", "=", "rolled-back")
      .executeTakeFirst();
    expect(row).toBeUndefined();
    if (TEST_DIALECT === "sqlite") expect(await synchronous()).toBe(2);
  });

  it.runIf(TEST_DIALECT === "postgres")(
    "on PostgreSQL, commit lazily with synchronous_commit off for that transaction only",
    async () => {
      const setting = async (db: Kysely<Schema>) =>
        (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]?.synchronous_commit;
      const seen = await Promise.all([
        commitLazily(test.database, setting),
        commitDurably(test.database, setting),
        setting(test.database.db),
      ]);
      expect(seen).toEqual(["off", "on", "on"]);
      // Every connection of the pool again, the lazy one among them: the setting ended with its transaction.
      const after = await Promise.all(Array.from({ length: 10 }, () => setting(test.database.db)));
      expect(new Set(after)).toEqual(new Set(["on"]));
    },
  );

  it.runIf(TEST_DIALECT === "sqlite")(
    "waits for another process's write lock on a timer, the event loop free, and then commits",
    async () => {
      const other = new SQLite(test.url.slice("sqlite:".length));
      other.exec("begin immediate");
      let ticks = 0;
      const ticker = setInterval(() => {
        ticks += 1;
      }, 5);
      const committing = commitLazily(test.database, (trx) =>
        trx.insertInto("instance_settings").values({ name: "after-the-lock", value: "v" }).execute(),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      other.exec("commit");
      other.close();
      await committing;
      clearInterval(ticker);
      // Waiting in SQLite's busy handler would have held the event loop, and the ticker, for the whole 100 ms.
      expect(ticks).toBeGreaterThan(5);
      const row = await test.database.db
        .selectFrom("instance_settings")
        .select("name")
        .where("name", "=", "after-the-lock")
        .executeTakeFirst();
      expect(row?.name).toBe("after-the-lock");
    },
  );

  it("syncs the log for any number of callers at once", async () => {
    await Promise.all(Array.from({ length: 50 }, () => test.database.syncLog()));
  });
});
