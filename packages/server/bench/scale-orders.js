/**
 * One measurement of `bench:scale`, in a process of its own so that each database starts with cold caches of its
 * own (a process keeps parsed shapes by row id, and two databases share ids): orders by location, each processed
 * here, timed after a warm-up. Reads the database URL, a JSON file of [lon, lat] points, the orders not timed and
 * optionally `runner` from its arguments; prints one JSON object. Each order's wall and CPU milliseconds are those
 * of `process_order`; with `runner`, of the job runner claiming, processing and completing the order as a worker
 * does (`runOnce`), and `placed` holds the wall milliseconds of placing each.
 */
import { readFileSync } from "node:fs";
import { openDatabase } from "../dist/db/database.js";
import { JobRunner } from "../dist/jobs/index.js";
import { createOrder, PROCESS_ORDER_JOB } from "../dist/orders/create-order.js";
import { processOrderJob } from "../dist/orders/process-order.js";
import { createOrganization } from "../dist/tenancy/organizations.js";

const [url, pointsFile, warmUp, mode] = process.argv.slice(2);
const points = JSON.parse(readFileSync(pointsFile, "utf8"));
const database = openDatabase(url);
const org = await createOrganization(database.db, `Scale Mutual ${process.pid}`);
const run = processOrderJob(database);
const runner = new JobRunner(database, { handlers: { [PROCESS_ORDER_JOB]: run } });
const processOrder = mode === "runner" ? () => runner.runOnce() : (order_id) => run({ order_id });
const wall = [];
const cpu = [];
const placed = [];
let complete = 0;
for (const [i, [lon, lat]] of points.entries()) {
  const placing = performance.now();
  const { order_id } = await createOrder(database, org.org_id, { location: { lon, lat } });
  const started = performance.now();
  const before = process.cpuUsage();
  await processOrder(order_id);
  const used = process.cpuUsage(before);
  if (i < Number(warmUp)) continue;
  wall.push(performance.now() - started);
  cpu.push((used.user + used.system) / 1000);
  placed.push(started - placing);
  const { status } = await database.db
    .selectFrom("orders")
    .select("status")
    .where("order_id", "=", order_id)
    .executeTakeFirstOrThrow();
  if (status === "complete") complete += 1;
}
await database.close();
process.stdout.write(JSON.stringify({ wall, cpu, complete, placed }));
