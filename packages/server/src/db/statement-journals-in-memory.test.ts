import { type Kysely, sql, type Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAN_LIST_OPEN_FILES, sqliteTemporaryFiles } from "../test/sqlite-temporary-files.js";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";
import type { Schema } from "./schema.js";
import { inTransactionWithStatementJournalsInMemory } from "./statement-journals-in-memory.js";

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.destroy());

/** SQLite's `temp_store`: 0 the default, 1 files, 2 memory. */
const tempStore = async (db: Kysely<Schema>) =>
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

/** A setting's name that sorts at position `n`, long enough that a few thousand fill many pages of the key's index. */
const spreadName = (n: number) => `spread-${String(n).padStart(6, "0")}-${"x".repeat(60)}`;

/**
 * Inserts, in one statement, names that fall between the stored ones all over the key's index: the statement's
 * journal then holds more pages than SQLite keeps in memory by itself (64 KB) before it moves to a file.
 */
async function insertAllOverTheIndex(trx: Transaction<Schema>, round: number): Promise<void> {
  const names = Array.from({ length: 100 }, (_, i) => spreadName(i * 4000 + round));
  await trx
    .insertInto("instance_settings")
    .values(names.map((name) => ({ name, value: "v" })))
    .execute();
}

describe("inTransactionWithStatementJournalsInMemory", () => {
  it("commits the work's transaction or rolls it back when the work throws, and leaves the connection's setting as it was", async () => {
    const before = TEST_DIALECT === "sqlite" ? await tempStore(test.database.db) : undefined;
    const answer = await inTransactionWithStatementJournalsInMemory(test.database, async (trx) => {
      await trx.insertInto("instance_settings").values({ name: "kept-1", value: "v" }).execute();
      // Sorts and temporary tables go to files as before: only the journals' place was decided in memory.
      if (TEST_DIALECT === "sqlite") expect(await tempStore(trx)).toBe(before);
      return "done";
    });
    expect(answer).toBe("done");
    await expect(
      inTransactionWithStatementJournalsInMemory(test.database, async (trx) => {
        await trx.insertInto("instance_settings").values({ name: "kept-2", value: "v" }).execute();
        throw new Error("half way");
      }),
    ).rejects.toThrow("half way");
    expect(await namesLike("kept-")).toEqual(["kept-1"]);
    if (TEST_DIALECT === "sqlite") expect(await tempStore(test.database.db)).toBe(before);
  });

  // The journal's file is what the helper saves; only SQLite keeps one, and only Linux lists a process's files.
  it.runIf(TEST_DIALECT === "sqlite" && CAN_LIST_OPEN_FILES)(
    "SQLite: a statement's journal too large for SQLite to keep in memory by itself opens no file",
    async () => {
      const stored = Array.from({ length: 4000 }, (_, i) => ({ name: spreadName(i * 100 + 50), value: "v" }));
      for (let start = 0; start < stored.length; start += 500) {
        await test.database.db
          .insertInto("instance_settings")
          .values(stored.slice(start, start + 500))
          .execute();
      }
      const before = sqliteTemporaryFiles();
      // The same statement in a plain transaction writes its journal to a file: the check can see one.
      await test.database.db.transaction().execute(async (trx) => {
        await insertAllOverTheIndex(trx, 1);
        expect(sqliteTemporaryFiles().length).toBeGreaterThan(before.length);
      });
      await inTransactionWithStatementJournalsInMemory(test.database, async (trx) => {
        await insertAllOverTheIndex(trx, 2);
        expect(sqliteTemporaryFiles()).toEqual(before);
      });
      expect((await namesLike("spread-")).length).toBe(4200);
    },
  );

  // PostgreSQL ends a transaction at its first failed statement: nothing to undo statement by statement.
  it.runIf(TEST_DIALECT === "sqlite")(
    "SQLite: undoes a statement that fails on a later row, and only that statement, with its journal in memory",
    async () => {
      await inTransactionWithStatementJournalsInMemory(test.database, async (trx) => {
        await trx.insertInto("instance_settings").values({ name: "row-a", value: "v" }).execute();
        // Its first rows are written before the third finds its key taken.
        const failing = trx
          .insertInto("instance_settings")
          .values(["row-b", "row-c", "row-a", "row-d"].map((name) => ({ name, value: "v" })))
          .execute();
        await expect(failing).rejects.toThrow(/UNIQUE/);
        await trx.insertInto("instance_settings").values({ name: "row-e", value: "v" }).execute();
      });
      expect(await namesLike("row-")).toEqual(["row-a", "row-e"]);
    },
  );
});
