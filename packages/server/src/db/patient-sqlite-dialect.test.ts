import SQLite from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTenant, createTestApp, type TestApp, tokenRequestBody } from "../test/test-app.js";
import { TEST_DIALECT } from "../test/test-database.js";
import { SQLITE_BUSY_TIMEOUT_MS } from "./database.js";
import { DatabaseBusyError } from "./database-busy-error.js";

/**
 * SQLite's one write lock held by another connection, as `lotline import` holds it for its whole transaction: the
 * service must keep answering while its writes wait, and say 503 when they have waited too long.
 */
describe.skipIf(TEST_DIALECT !== "sqlite")("a SQLite write while another connection holds the lock", () => {
  let test: TestApp;
  let other: SQLite.Database | undefined;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterEach(() => {
    if (other?.inTransaction) other.exec("rollback");
    other?.close();
    other = undefined;
  });
  afterAll(() => test.close());

  /** Another connection to the test database, holding the write lock until it commits or rolls back. */
  function holdWriteLock(): SQLite.Database {
    other = new SQLite(test.testDatabase.url.slice("sqlite:".length));
    other.exec("begin immediate");
    return other;
  }

  const settingNamed = (name: string) =>
    test.services.db.selectFrom("instance_settings").select("value").where("name", "=", name).executeTakeFirst();

  it("waits on timers, the event loop free, and commits once the lock is released", async () => {
    const holder = holdWriteLock();
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 5);
    const writing = test.services.db
      .transaction()
      .execute((trx) => trx.insertInto("instance_settings").values({ name: "after-the-lock", value: "v" }).execute());
    await new Promise((resolve) => setTimeout(resolve, 200));
    holder.exec("commit");
    await writing;
    clearInterval(ticker);
    // In SQLite's busy handler the whole 200 ms would have passed without a tick.
    expect(ticks).toBeGreaterThan(10);
    expect(await settingNamed("after-the-lock")).toEqual({ value: "v" });
  });

  it(
    "answers 503 database_busy with Retry-After once a write has waited its limit, having written nothing, and " +
      "answers /healthz meanwhile",
    async () => {
      const tenant = await createTenant(test.services);
      holdWriteLock();
      const answered: string[] = [];
      const token = test.app
        .inject({ method: "POST", url: "/oauth/token", payload: tokenRequestBody(test, tenant) })
        .then((response) => {
          answered.push("token");
          return response;
        });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const health = await test.app.inject({ method: "GET", url: "/healthz" });
      answered.push("healthz");
      expect(health.statusCode).toBe(200);

      const refused = await token;
      expect(answered).toEqual(["healthz", "token"]);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers["retry-after"]).toBe("5");
      expect(refused.json()).toMatchObject({ code: "database_busy", status: 503 });
      other?.exec("rollback");
      const issued = await test.services.db.selectFrom("token_issuances").select("client_id").execute();
      expect(issued.filter((row) => row.client_id === tenant.clientId)).toEqual([]);
    },
  );

  it(
    "fails a statement with DatabaseBusyError after its limit, and the statements queued behind it then run",
    async () => {
      holdWriteLock();
      const writing = test.services.db
        .insertInto("instance_settings")
        .values({ name: "never", value: "v" })
        .execute()
        .then(
          () => "written",
          (error: unknown) => error,
        );
      const reading = settingNamed("after-the-lock");
      expect(await writing).toBeInstanceOf(DatabaseBusyError);
      expect(await reading).toEqual({ value: "v" });
      other?.exec("rollback");
      expect(await settingNamed("never")).toBeUndefined();
    },
    SQLITE_BUSY_TIMEOUT_MS * 3,
  );
});
