// A worker process for crash.test.ts, run with plain `node` on the compiled code (`tsc --build` first):
//   node crash-worker.fixture.mjs DATABASE_URL work|finish
// Each `crash` job sleeps `payload.ms`, then records its run in `crash_runs`. In `work` mode it runs until
// killed; in `finish` mode it exits once no job is pending or running.
import { openDatabase } from "../../dist/db/database.js";
import { JobRunner } from "../../dist/jobs/index.js";

const [url, mode] = process.argv.slice(2);
if (!url || (mode !== "work" && mode !== "finish")) throw new Error("usage: crash-worker.fixture.mjs URL work|finish");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const database = openDatabase(url);
const runner = new JobRunner(database, {
  concurrency: 4,
  leaseMs: 500,
  pollMs: 20,
  logger: {
    warn() {},
    error(details, message) {
      console.error(message, details);
    },
  },
  handlers: {
    async crash(payload, job) {
      await sleep(payload.ms);
      await database.db
        .insertInto("crash_runs")
        .values({ job_id: job.job_id, attempt: job.attempts, pid: process.pid })
        .execute();
    },
  },
});
runner.start();
process.stdout.write("ready\n");

if (mode === "finish") {
  for (;;) {
    const left = await database.db
      .selectFrom("jobs")
      .select("job_id")
      .where("status", "in", ["pending", "running"])
      .limit(1)
      .execute();
    if (left.length === 0) break;
    await sleep(50);
  }
  await runner.stop();
  await database.close();
}
