import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { enqueueJob } from "./index.js";

const FIXTURE = fileURLToPath(new URL("./crash-worker.fixture.mjs", import.meta.url));
const COMPILED = fileURLToPath(new URL("../../dist/jobs/index.js", import.meta.url));
const JOBS = 300;
const ROUNDS = 3;

let test: TestDatabase;

beforeAll(async () => {
  if (!existsSync(COMPILED)) throw new Error(`${COMPILED} is missing: run \`npx tsc --build\` before the tests`);
  test = await createTestDatabase();
  await sql`create table crash_runs (job_id integer not null, attempt integer not null, pid integer not null)`.execute(
    test.database.db,
  );
});
afterAll(() => test.destroy());

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function startWorker(mode: "work" | "finish"): Worker {
  const child = spawn(process.execPath, [FIXTURE, test.url, mode], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      if (String(chunk).includes("ready")) resolve();
    });
    child.once("exit", () => reject(new Error(`worker exited before it was ready: ${stderr}`)));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal, stderr }));
  });
  return { child, ready, exited };
}

function runsSoFar(): Promise<number> {
  return test.database.db
    .selectFrom("crash_runs" as never)
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

it("loses no job when its workers are killed with SIGKILL mid-run, again and again", async () => {
  await test.database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < JOBS; i++) await enqueueJob(trx, "crash", { ms: 10 + (i % 4) * 10 });
  });

  for (let round = 0; round < ROUNDS; round++) {
    // Two processes sharing the work, killed without warning once each has been busy for a little while.
    const workers = [startWorker("work"), startWorker("work")];
    await Promise.all(workers.map((worker) => worker.ready));
    const before = await runsSoFar();
    const deadline = Date.now() + 5000;
    while ((await runsSoFar()) < before + 20 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
    for (const worker of workers) worker.child.kill("SIGKILL");
    for (const worker of workers) expect((await worker.exited).signal).toBe("SIGKILL");
  }

  const interrupted = await test.database.db
    .selectFrom("jobs")
    .select("job_id")
    .where("status", "=", "running")
    .execute();
  expect(interrupted.length).toBeGreaterThan(0);

  const finishers = [startWorker("finish"), startWorker("finish")];
  for (const finisher of finishers) {
    const { code, stderr } = await finisher.exited;
    expect(stderr).toBe("");
    expect(code).toBe(0);
  }

  const jobs = await test.database.db.selectFrom("jobs").select(["job_id", "status", "attempts"]).execute();
  expect(jobs).toHaveLength(JOBS);
  expect(jobs.filter((job) => job.status !== "done")).toEqual([]);
  // Killed attempts were claimed again: at least once, not exactly once.
  expect(jobs.some((job) => job.attempts > 1)).toBe(true);
  const runs = await test.database.db
    .selectFrom("crash_runs" as never)
    .select(sql<number>`count(distinct job_id)`.as("n"))
    .executeTakeFirstOrThrow();
  expect(Number(runs.n)).toBe(JOBS);
});
