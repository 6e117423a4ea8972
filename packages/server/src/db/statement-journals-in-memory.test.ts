import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";
import type { Schema } from "./schema.js";
import { withStatementJournalsInMemory } from "./statement-journals-in-memory.js";

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.destroy());

/** SQLite's `temp_store`: 0 the default, 1 files, 2 memory. */
const tempStore = async (db: Kysely<Schema> = test.database.db) =>
  Number((await sql<{ temp_store: number }>`pragma temp_store`.execute(db)).rows[0]?.temp_store);

const namesLike = async (prefix: string) =>
  (
    await test.database.db
      .selectFrom("instance_settings")
      .select("name")
      .where("name", "like", `${prefix}%`)
      .orderBy("name")
      .execute()
  ).map((row) => row.name);

describe("withStatementJournalsInMemory", () => {
  it("commits the work's transaction and leaves the connection's setting as it was, also when the work throws", async () => {
    const before = TEST_DIALECT === "sqlite" ? await tempStore() : undefined;
    const answer = await withStatementJournalsInMemory(test.database, (db) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto("instance_settings").values({ name: "kept-1", value: "v" }).execute();
        return "done";
      }),
    );
    expect(answer).toBe("done");
    await expect(
      withStatementJournalsInMemory(test.database, (db) =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto("instance_settings").values({ name: "kept-2", value: "v" }).execute();
          throw new Error("half way");
        }),
      ),
    ).rejects.toThrow("half way");
    expect(await namesLike("kept-")).toEqual(["kept-1"]);
    if (TEST_DIALECT === "sqlite") expect(await tempStore()).toBe(before);
  });

  // PostgreSQL ends a transaction at its first failed statement: nothing to undo statement by statement.
  it.runIf(TEST_DIALECT === "sqlite")(
    "SQLite: undoes a statement that fails on a later row, and only that statement, with its journal in memory",
    async () => {
      await withStatementJournalsInMemory(test.database, (db) =>
        db.transaction().execute(async (trx) => {
          expect(await tempStore(trx)).toBe(2);
          await trx.insertInto("instance_settings").values({ name: "row-a", value: "v" }).execute();
          // Its first rows are written before the third finds its key taken.
          const failing = trx
            .insertInto("instance_settings")
            .values(["row-b", "row-c", "row-a", "row-d"].map((name) => ({ name, value: "v" })))
            .execute();
          await expect(failing).rejects.toThrow(/UNIQUE/);
          await trx.insertInto("instance_settings").values({ name: "row-e", value: "v" }).execute();
        }),
      );
      expect(await namesLike("row-")).toEqual(["row-a", "row-e"]);
    },
  );
});
