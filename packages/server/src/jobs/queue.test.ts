import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../db/database.js";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";
import { claimJob, completeJob, enqueueJob, extendLease, failJob, rescheduleJob } from "./index.js";

const T0 = 1_700_000_000_000;
const LEASE_MS = 30_000;

let test: TestDatabase;
let database: Database;

beforeAll(async () => {
  test = await createTestDatabase();
  database = test.database;
});
afterAll(() => test.destroy());
beforeEach(async () => {
  await database.db.deleteFrom("jobs").execute();
});

function row(jobId: number) {
  return database.db.selectFrom("jobs").selectAll().where("job_id", "=", jobId).executeTakeFirstOrThrow();
}

describe("enqueueJob", () => {
  it("writes the job with the transaction that caused it, and not when that rolls back", async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await enqueueJob(trx, "order.process", { orderId: "ord_rolled_back" });
        throw new Error("the order failed to save");
      }),
    ).rejects.toThrow("the order failed to save");
    expect(await database.db.selectFrom("jobs").selectAll().execute()).toEqual([]);

    const jobId = await database.db
      .transaction()
      .execute((trx) => enqueueJob(trx, "order.process", { orderId: "ord_1" }, { now: T0 }));
    expect(await row(jobId)).toMatchObject({
      kind: "order.process",
      payload: '{"orderId":"ord_1"}',
      status: "pending",
      run_at: T0,
      attempts: 0,
      lease_until: null,
      created_at: T0,
      finished_at: null,
    });
  });
});

describe("claimJob", () => {
  it("claims the oldest due job, marks it running under a lease and counts the attempt", async () => {
    const later = await enqueueJob(database.db, "k", { n: 2 }, { now: T0, runAt: T0 - 1000 });
    const oldest = await enqueueJob(database.db, "k", { n: 1 }, { now: T0, runAt: T0 - 5000 });
    const sameTimeAsLater = await enqueueJob(database.db, "k", { n: 3 }, { now: T0, runAt: T0 - 1000 });

    const first = await claimJob(database, { leaseMs: LEASE_MS, now: T0 });
    expect(first).toEqual({
      job_id: oldest,
      kind: "k",
      priority: 0,
      payload: { n: 1 },
      attempts: 1,
      run_at: T0 - 5000,
      lease_until: T0 + LEASE_MS,
      last_error: null,
      created_at: T0,
    });
    expect(await row(oldest)).toMatchObject({ status: "running", attempts: 1, lease_until: T0 + LEASE_MS });
    expect((await claimJob(database, { leaseMs: LEASE_MS, now: T0 }))?.job_id).toBe(later);
    expect((await claimJob(database, { leaseMs: LEASE_MS, now: T0 }))?.job_id).toBe(sameTimeAsLater);
    expect(await claimJob(database, { leaseMs: LEASE_MS, now: T0 })).toBeUndefined();
  });

  it("claims the work someone waits for before bulk work, then bulk work by priority", async () => {
    const bulkLater = await enqueueJob(database.db, "k", { n: 1 }, { now: T0, runAt: T0 - 9000, priority: 2 });
    const bulk = await enqueueJob(database.db, "k", { n: 2 }, { now: T0, runAt: T0 - 5000, priority: 1 });
    const urgent = await enqueueJob(database.db, "k", { n: 3 }, { now: T0, runAt: T0 - 1000 });
    await enqueueJob(database.db, "k", { n: 4 }, { now: T0, runAt: T0 + 1000 });
    const claims = [];
    for (let i = 0; i < 4; i++) claims.push((await claimJob(database, { leaseMs: LEASE_MS, now: T0 }))?.job_id);
    expect(claims).toEqual([urgent, bulk, bulkLater, undefined]);
  });

  it("claims a job whose worker's lease expired before any due job, whatever their priorities", async () => {
    const stranded = await enqueueJob(database.db, "k", { n: 5 }, { now: T0, priority: 3 });
    await claimJob(database, { leaseMs: LEASE_MS, now: T0 });
    const waiting = await enqueueJob(database.db, "k", { n: 6 }, { now: T0 + LEASE_MS });
    expect((await claimJob(database, { leaseMs: LEASE_MS, now: T0 + LEASE_MS }))?.job_id).toBe(stranded);
    expect((await claimJob(database, { leaseMs: LEASE_MS, now: T0 + LEASE_MS }))?.job_id).toBe(waiting);
  });

  it("leaves a job alone until its run_at", async () => {
    const jobId = await enqueueJob(database.db, "k", null, { now: T0, runAt: T0 + 60_000 });
    expect(await claimJob(database, { leaseMs: LEASE_MS, now: T0 })).toBeUndefined();
    expect(await claimJob(database, { leaseMs: LEASE_MS, now: T0 + 59_999 })).toBeUndefined();
    expect(await row(jobId)).toMatchObject({ status: "pending", attempts: 0 });
    expect(await claimJob(database, { leaseMs: LEASE_MS, now: T0 + 60_000 })).toMatchObject({ job_id: jobId });
  });

  it("fails a row whose payload is not JSON instead of letting it block the queue", async () => {
    const { job_id: broken } = await database.db
      .insertInto("jobs")
      .values({ kind: "k", payload: "{not json", status: "pending", run_at: T0, created_at: T0 })
      .returning("job_id")
      .executeTakeFirstOrThrow();
    const next = await enqueueJob(database.db, "k", [1], { now: T0 });
    expect(await claimJob(database, { leaseMs: LEASE_MS, now: T0 })).toMatchObject({ job_id: next, payload: [1] });
    expect(await row(broken)).toMatchObject({ status: "failed", attempts: 1, last_error: "the payload is not JSON" });
  });

  it("claims only the kinds asked for", async () => {
    await enqueueJob(database.db, "webhook.deliver", {}, { now: T0 });
    const order = await enqueueJob(database.db, "order.process", {}, { now: T0 + 1, runAt: T0 + 1 });
    expect(await claimJob(database, { kinds: [], leaseMs: LEASE_MS, now: T0 + 1 })).toBeUndefined();
    const claimed = await claimJob(database, { kinds: ["order.process"], leaseMs: LEASE_MS, now: T0 + 1 });
    expect(claimed?.job_id).toBe(order);
    expect(await claimJob(database, { kinds: ["order.process"], leaseMs: LEASE_MS, now: T0 + 1 })).toBeUndefined();
  });

  it("never hands one job to two claimers racing on separate connections", async () => {
    const JOBS = 100;
    await database.db
      .insertInto("jobs")
      .values(
        Array.from({ length: JOBS }, (_, i) => ({
          kind: "race",
          payload: `{"i":${i}}`,
          status: "pending" as const,
          run_at: T0,
          created_at: T0,
          lease_until: null,
          last_error: null,
          finished_at: null,
        })),
      )
      .execute();
    const other = openDatabase(test.url);
    try {
      const handled: number[] = [];
      const worker = async (from: Pick<Database, "db" | "dialect">) => {
        for (;;) {
          const job = await claimJob(from, { leaseMs: LEASE_MS, now: T0 });
          if (!job) return;
          handled.push(job.job_id);
          expect(await completeJob(from.db, job, T0)).toBe(true);
        }
      };
      // Four claimers on each of two databases (PostgreSQL: two pools; SQLite: two connections to one file).
      await Promise.all([database, other, database, other, database, other, database, other].map(worker));
      expect(handled).toHaveLength(JOBS);
      expect(new Set(handled).size).toBe(JOBS);
      const statuses = await database.db.selectFrom("jobs").select(["status", "attempts"]).distinct().execute();
      expect(statuses).toEqual([{ status: "done", attempts: 1 }]);
    } finally {
      await other.close();
    }
  });

  it.runIf(TEST_DIALECT === "postgres")("skips a job another transaction holds instead of waiting for it", async () => {
    const held = await enqueueJob(database.db, "k", {}, { now: T0 });
    const free = await enqueueJob(database.db, "k", {}, { now: T0 });
    await database.db.transaction().execute(async (trx) => {
      await sql`select job_id from jobs where job_id = ${held} for update`.execute(trx);
      // Another pooled connection: with a plain `for update` this would wait for the transaction, i.e. forever.
      const claimed = await claimJob(database, { leaseMs: LEASE_MS, now: T0 });
      expect(claimed?.job_id).toBe(free);
    });
    expect((await claimJob(database, { leaseMs: LEASE_MS, now: T0 }))?.job_id).toBe(held);
  });
});

describe("leases and fencing", () => {
  it("hands a job whose lease expired to a new attempt, and a stale worker can no longer settle it", async () => {
    const jobId = await enqueueJob(database.db, "k", {}, { now: T0 });
    const stale = await claimJob(database, { leaseMs: 1000, now: T0 });
    expect(stale?.attempts).toBe(1);
    if (!stale) return;

    expect(await claimJob(database, { leaseMs: 1000, now: T0 + 999 })).toBeUndefined();
    const fresh = await claimJob(database, { leaseMs: 1000, now: T0 + 1000 });
    expect(fresh).toMatchObject({ job_id: jobId, attempts: 2, lease_until: T0 + 2000 });
    if (!fresh) return;

    expect(await completeJob(database.db, stale, T0 + 1100)).toBe(false);
    expect(await failJob(database.db, stale, "late", { final: true, now: T0 + 1100 })).toBe(false);
    expect(await failJob(database.db, stale, "late", { retryAt: T0 })).toBe(false);
    expect(await rescheduleJob(database.db, stale, T0)).toBe(false);
    expect(await extendLease(database.db, stale, 60_000, T0 + 1100)).toBe(false);
    expect(await row(jobId)).toMatchObject({
      status: "running",
      attempts: 2,
      lease_until: T0 + 2000,
      last_error: null,
    });

    expect(await completeJob(database.db, fresh, T0 + 1200)).toBe(true);
    expect(await row(jobId)).toMatchObject({ status: "done", attempts: 2, finished_at: T0 + 1200, lease_until: null });
    // Settled once: the same attempt cannot settle it again either.
    expect(await failJob(database.db, fresh, "twice", { final: true })).toBe(false);
    expect(await claimJob(database, { leaseMs: 1000, now: T0 + 100_000 })).toBeUndefined();
  });

  it("keeps a job from other claimers while its lease is extended", async () => {
    const jobId = await enqueueJob(database.db, "k", {}, { now: T0 });
    const job = await claimJob(database, { leaseMs: 1000, now: T0 });
    if (!job) throw new Error("no job claimed");
    expect(await extendLease(database.db, job, 1000, T0 + 900)).toBe(true);
    expect(await claimJob(database, { leaseMs: 1000, now: T0 + 1500 })).toBeUndefined();
    expect(await row(jobId)).toMatchObject({ status: "running", attempts: 1, lease_until: T0 + 1900 });
    expect((await claimJob(database, { leaseMs: 1000, now: T0 + 1900 }))?.attempts).toBe(2);
  });
});

describe("failJob", () => {
  it("puts a failed attempt back until retryAt, then fails the job for good and keeps the row", async () => {
    const jobId = await enqueueJob(database.db, "k", {}, { now: T0 });
    const first = await claimJob(database, { leaseMs: LEASE_MS, now: T0 });
    if (!first) throw new Error("no job claimed");
    expect(await failJob(database.db, first, "Error: receiver answered 503", { retryAt: T0 + 5000 })).toBe(true);
    expect(await row(jobId)).toMatchObject({
      status: "pending",
      run_at: T0 + 5000,
      lease_until: null,
      last_error: "Error: receiver answered 503",
      attempts: 1,
    });
    expect(await claimJob(database, { leaseMs: LEASE_MS, now: T0 + 4999 })).toBeUndefined();

    const second = await claimJob(database, { leaseMs: LEASE_MS, now: T0 + 5000 });
    expect(second).toMatchObject({ attempts: 2, last_error: "Error: receiver answered 503" });
    if (!second) return;
    expect(await failJob(database.db, second, "x".repeat(10_000), { final: true, now: T0 + 6000 })).toBe(true);
    const failed = await row(jobId);
    expect(failed).toMatchObject({ status: "failed", finished_at: T0 + 6000, lease_until: null, attempts: 2 });
    expect(failed.last_error).toHaveLength(4000);
    expect(await claimJob(database, { leaseMs: LEASE_MS, now: T0 + 10_000_000 })).toBeUndefined();
  });
});
