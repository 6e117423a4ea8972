import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.destroy());

/**
 * Another process that holds the SQLite file's write lock for `ms`, as an order thread or a worker process does
 * while it commits; resolves once it holds it.
 */
function holdWriteLock(path: string, ms: number): Promise<void> {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const script = `const SQLite = require(${JSON.stringify(driver)});
    const db = new SQLite(${JSON.stringify(path)});
    db.exec("begin immediate");
    process.stdout.write("locked\\n");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
    db.exec("commit");`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", () => resolve());
    child.on("exit", (code) => reject(new Error(`the lock holder exited (${code}) before it held the lock`)));
  });
}

describe.skipIf(TEST_DIALECT !== "sqlite")("SQLite transactions", () => {
  it("wait their turn for another process's write lock even when they read before they write", async () => {
    await holdWriteLock(test.url.slice("sqlite:".length), 300);
    // Begun deferred, this would read, then fail at once with SQLITE_BUSY on its first write: SQLite does not
    // wait for a lock a reading transaction asks for.
    await test.database.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("instance_settings").select("name").execute();
      await trx
        .insertInto("instance_settings")
        .values({ name: `after-${before.length}`, value: "v" })
        .execute();
    });
    const row = await test.database.db
      .selectFrom("instance_settings")
      .select("name")
      .where("name", "like", "after-%")
      .executeTakeFirst();
    expect(row?.name).toMatch(/^after-\d+$/);
  });
});
