import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../db/database.js";
import type { JobStatus } from "../db/schema.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { claimJob, enqueueJob, JobRunner, type JobRunnerOptions, PermanentJobError } from "./index.js";

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

/** A logger that keeps what it is told, so tests stay quiet and can look. */
function memoryLogger() {
  const lines: string[] = [];
  return {
    lines,
    warn: (_: object, message: string) => lines.push(message),
    error: (_: object, m: string) => lines.push(m),
  };
}

/** A runner on a clock the test moves by hand, with jitter fixed at one half. */
function runnerWithClock(options: Omit<JobRunnerOptions, "now" | "random">, start = 1_700_000_000_000) {
  const clock = { now: start };
  const logger = memoryLogger();
  const runner = new JobRunner(database, { logger, ...options, now: () => clock.now, random: () => 0.5 });
  return { clock, runner, logger };
}

function row(jobId: number) {
  return database.db.selectFrom("jobs").selectAll().where("job_id", "=", jobId).executeTakeFirstOrThrow();
}

async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function countByStatus(status: JobStatus): Promise<number> {
  const rows = await database.db.selectFrom("jobs").select("job_id").where("status", "=", status).execute();
  return rows.length;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("JobRunner", () => {
  it("works through a burst of jobs, `concurrency` at a time, each once", async () => {
    const JOBS = 40;
    for (let i = 0; i < JOBS; i++) await enqueueJob(database.db, "burst", { i });
    const seen: number[] = [];
    let running = 0;
    let mostAtOnce = 0;
    // The first jobs hold their slots until four run at once (or 2 s pass, when the runner would be at fault), so
    // that a slow machine claiming slowly still shows the concurrency.
    const fourRunning = deferred();
    const runner = new JobRunner(database, {
      concurrency: 4,
      pollMs: 20,
      logger: memoryLogger(),
      handlers: {
        async burst(payload) {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          if (running === 4) fourRunning.resolve();
          await Promise.race([fourRunning.promise, new Promise((resolve) => setTimeout(resolve, 2000))]);
          seen.push((payload as { i: number }).i);
          running -= 1;
        },
      },
    });
    runner.start();
    await until(async () => (await countByStatus("done")) === JOBS);
    expect(await runner.stop()).toBe(true);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: JOBS }, (_, i) => i));
    expect(mostAtOnce).toBe(4);
  });

  it("stops claiming on stop() and waits for the attempts in flight", async () => {
    const release = deferred();
    const started = deferred();
    const runner = new JobRunner(database, {
      pollMs: 10,
      logger: memoryLogger(),
      handlers: {
        async slow() {
          started.resolve();
          await release.promise;
        },
      },
    });
    const first = await enqueueJob(database.db, "slow", {});
    runner.start();
    await started.promise;

    let stopped = false;
    const stopping = runner.stop({ timeoutMs: 10_000 }).then((finished) => {
      stopped = true;
      return finished;
    });
    const second = await enqueueJob(database.db, "slow", {});
    runner.nudge();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    expect(runner.inFlight).toBe(1);

    release.resolve();
    expect(await stopping).toBe(true);
    expect(await row(first)).toMatchObject({ status: "done", attempts: 1 });
    expect(await row(second)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("gives up waiting after the timeout, aborting the handler's signal and leaving the job to its lease", async () => {
    const started = deferred();
    let abortedWith: unknown;
    const runner = new JobRunner(database, {
      pollMs: 10,
      leaseMs: 60_000,
      logger: memoryLogger(),
      handlers: {
        async stuck(_, job) {
          started.resolve();
          await new Promise((resolve) => job.signal.addEventListener("abort", resolve));
          abortedWith = job.signal.reason;
          throw job.signal.reason;
        },
      },
    });
    const jobId = await enqueueJob(database.db, "stuck", {});
    runner.start();
    await started.promise;
    expect(await runner.stop({ timeoutMs: 50 })).toBe(false);
    await until(() => abortedWith !== undefined);
    expect(String(abortedWith)).toContain("stopped");
    await until(async () => (await row(jobId)).status === "pending");
    expect(await row(jobId)).toMatchObject({ status: "pending", attempts: 1 });
  });

  it("retries a throwing handler after a growing backoff until it succeeds", async () => {
    let calls = 0;
    const { clock, runner } = runnerWithClock({
      handlers: {
        async flaky() {
          calls += 1;
          if (calls < 3) throw new Error(`receiver down (${calls})`);
        },
      },
    });
    const jobId = await enqueueJob(database.db, "flaky", {}, { now: clock.now });

    expect(await runner.drain()).toBe(1);
    // Attempt 1 failed: full jitter at one half of the first ceiling (1 s).
    expect(await row(jobId)).toMatchObject({
      status: "pending",
      attempts: 1,
      run_at: clock.now + 500,
      last_error: "Error: receiver down (1)",
    });
    clock.now += 499;
    expect(await runner.drain()).toBe(0);

    clock.now += 1;
    expect(await runner.drain()).toBe(1);
    expect(await row(jobId)).toMatchObject({ status: "pending", attempts: 2, run_at: clock.now + 1000 });

    clock.now += 1000;
    expect(await runner.drain()).toBe(1);
    expect(await row(jobId)).toMatchObject({ status: "done", attempts: 3, finished_at: clock.now });
    expect(calls).toBe(3);
  });

  it("fails a job for good after the kind's maxAttempts and keeps it", async () => {
    const { clock, runner, logger } = runnerWithClock({
      retry: { maxAttempts: 10 },
      retryByKind: { webhook: { maxAttempts: 3, baseMs: 100 } },
      handlers: {
        async webhook() {
          throw new Error("still down");
        },
      },
    });
    const jobId = await enqueueJob(database.db, "webhook", {}, { now: clock.now });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await runner.drain()).toBe(1);
      const after = await row(jobId);
      if (after.status === "pending") delays.push(after.run_at - clock.now);
      clock.now = after.run_at;
    }
    expect(delays).toEqual([50, 100]);
    expect(await row(jobId)).toMatchObject({
      status: "failed",
      attempts: 3,
      finished_at: clock.now,
      last_error: "Error: still down",
    });
    clock.now += 365 * 24 * 3_600_000;
    expect(await runner.drain()).toBe(0);
    expect(logger.lines).toContain("job failed for good");
  });

  it("fails a job at once on PermanentJobError", async () => {
    const { clock, runner } = runnerWithClock({
      handlers: {
        async order() {
          throw new PermanentJobError("the property was deleted");
        },
      },
    });
    const jobId = await enqueueJob(database.db, "order", {}, { now: clock.now });
    expect(await runner.drain()).toBe(1);
    expect(await row(jobId)).toMatchObject({
      status: "failed",
      attempts: 1,
      last_error: "PermanentJobError: the property was deleted",
    });
  });

  it("puts a job back without an error when its handler asks to run again later", async () => {
    let calls = 0;
    const { clock, runner } = runnerWithClock({
      handlers: {
        async poll() {
          calls += 1;
          return calls === 1 ? { retryAt: clock.now + 60_000 } : undefined;
        },
      },
    });
    const jobId = await enqueueJob(database.db, "poll", {}, { now: clock.now });
    expect(await runner.drain()).toBe(1);
    expect(await row(jobId)).toMatchObject({ status: "pending", run_at: clock.now + 60_000, last_error: null });
    clock.now += 60_000;
    expect(await runner.drain()).toBe(1);
    expect(await row(jobId)).toMatchObject({ status: "done", attempts: 2 });
  });

  it("fails a job that keeps asking to run later once it reaches maxAttempts", async () => {
    const { clock, runner } = runnerWithClock({
      retry: { maxAttempts: 2 },
      handlers: { busy: async () => ({ retryAt: clock.now + 1000 }) },
    });
    const jobId = await enqueueJob(database.db, "busy", {}, { now: clock.now });
    expect(await runner.drain()).toBe(1);
    expect(await row(jobId)).toMatchObject({ status: "pending", attempts: 1, last_error: null });
    clock.now += 1000;
    expect(await runner.drain()).toBe(1);
    expect(await row(jobId)).toMatchObject({
      status: "failed",
      attempts: 2,
      last_error: "gave up after 2 attempts; the last asked to run again later",
    });
  });

  it("claims only the kinds it has handlers for", async () => {
    const { clock, runner } = runnerWithClock({ handlers: { mine: async () => {} } });
    const other = await enqueueJob(database.db, "someone-else", {}, { now: clock.now });
    const mine = await enqueueJob(database.db, "mine", {}, { now: clock.now });
    expect(await runner.drain()).toBe(1);
    expect(await row(mine)).toMatchObject({ status: "done" });
    expect(await row(other)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("renews the lease while a long handler runs, so no one else takes the job", async () => {
    const started = deferred();
    const release = deferred();
    const runner = new JobRunner(database, {
      leaseMs: 90,
      logger: memoryLogger(),
      handlers: {
        async long() {
          started.resolve();
          await release.promise;
        },
      },
    });
    const jobId = await enqueueJob(database.db, "long", {});
    const running = runner.runOnce();
    await started.promise;
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await claimJob(database, { leaseMs: 1000 })).toBeUndefined();
    }
    release.resolve();
    expect(await running).toBe(1);
    expect(await row(jobId)).toMatchObject({ status: "done", attempts: 1 });
  });

  it("aborts an attempt that lost its job to a newer one, and drops its outcome", async () => {
    const started = deferred();
    const logger = memoryLogger();
    const runner = new JobRunner(database, {
      leaseMs: 60,
      logger,
      handlers: {
        async lost(_, job) {
          started.resolve();
          await new Promise((resolve) => job.signal.addEventListener("abort", resolve));
        },
      },
    });
    const jobId = await enqueueJob(database.db, "lost", {});
    const running = runner.runOnce();
    await started.promise;
    // Another worker whose clock says the lease is long gone takes the job over.
    const newer = await claimJob(database, { leaseMs: 600_000, now: Date.now() + 3_600_000 });
    expect(newer).toMatchObject({ job_id: jobId, attempts: 2 });
    await running;
    expect(await row(jobId)).toMatchObject({ status: "running", attempts: 2 });
    expect(logger.lines).toContain("a newer attempt owns the job; this attempt's outcome was dropped");
  });

  it("wakes at once when nudged instead of waiting for the next poll", async () => {
    const runner = new JobRunner(database, {
      pollMs: 60_000,
      logger: memoryLogger(),
      handlers: { quick: async () => {} },
    });
    runner.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const jobId = await enqueueJob(database.db, "quick", {});
    const nudgedAt = Date.now();
    runner.nudge();
    await until(async () => (await row(jobId)).status === "done", 5000);
    expect(Date.now() - nudgedAt).toBeLessThan(2000);
    expect(await runner.stop()).toBe(true);
  });

  it("runs at most `bulkConcurrency` bulk jobs at once and keeps the other slots for urgent work", async () => {
    const release = deferred();
    const running = { bulk: 0, most: 0 };
    let urgentDone = false;
    const runner = new JobRunner(database, {
      concurrency: 4,
      bulkConcurrency: 2,
      pollMs: 20,
      logger: memoryLogger(),
      handlers: {
        bulk: async () => {
          running.bulk++;
          running.most = Math.max(running.most, running.bulk);
          await release.promise;
          running.bulk--;
        },
        urgent: async () => {
          urgentDone = true;
        },
      },
    });
    for (let i = 0; i < 6; i++) await enqueueJob(database.db, "bulk", { i }, { priority: 1 });
    runner.start();
    await until(() => running.bulk === 2);
    // Two slots stay free while the batch waits: an urgent job placed now runs at once.
    await enqueueJob(database.db, "urgent", {});
    runner.nudge();
    await until(() => urgentDone);
    expect(running.bulk).toBe(2);
    expect(await countByStatus("pending")).toBe(4);
    release.resolve();
    await until(async () => (await countByStatus("done")) === 7);
    expect(running.most).toBe(2);
    expect(await runner.stop()).toBe(true);
  });
});
