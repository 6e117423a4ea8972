import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { sql } from "kysely";
import { freePort, positiveInteger, print, printTable } from "../../../scripts/bench-kit.js";
import { ADDRESS_PART_COLUMNS, addressLine } from "../dist/geo/store/address-line.js";
import { createOrder } from "../dist/orders/create-order.js";
import { processOrderJob } from "../dist/orders/process-order.js";
import { addCallbackPrefix } from "../dist/tenancy/callback-prefixes.js";
import { accessToken, benchTenant, cpuSeconds, ordersProcessing, serve, stop } from "./served.js";

const ORDERS = positiveInteger("BENCH_ORDERS", 300);
const PHASE_MS = positiveInteger("BENCH_PHASE_SECONDS", 90) * 1000;
const CONCURRENCY = 10;
const BASELINE_SECONDS = 4;
// Enough for a drain of several seconds: each worker process's first orders load the atlases and fill its caches,
// which with fewer orders is most of what gets timed.
const DRAIN_ORDERS = positiveInteger("BENCH_DRAIN_ORDERS", 5000);
const COMPUTE_ORDERS = positiveInteger("BENCH_COMPUTE_ORDERS", 1000);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts every request; answers 204. */
async function receiver() {
  const state = { count: 0, lastAt: 0, seen: new Set() };
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      state.count += 1;
      state.lastAt = performance.now();
      if (request.headers["webhook-id"]) state.seen.add(request.headers["webhook-id"]);
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, state, url: `http://127.0.0.1:${server.address().port}/hooks/` };
}

/** Runs `task(i)` for i in [0, n) with `CONCURRENCY` in flight; answers the latencies. */
async function pool(n, task) {
  let next = 0;
  const latencies = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const started = performance.now();
        await task(i);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99) };
}

/** Polls `done` every `intervalMs` (each poll is a query that takes CPU from the server measured). */
async function waitUntil(what, done, intervalMs = 10) {
  const deadline = Date.now() + PHASE_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${PHASE_MS} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** Places `ORDERS` orders over HTTP and waits until none is processing; with `callbackUrl`, until all are delivered. */
async function orderPhase({ base, token, addresses, database, callbackUrl, hooks, count = ORDERS }) {
  const { db } = database;
  const before = Number((await db.selectFrom("orders").select(sql`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
  const hooksBefore = hooks.state.count;
  let non2xx = 0;
  const started = performance.now();
  const placing = await pool(count, async (i) => {
    const response = await fetch(`${base}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        address: addresses[i % addresses.length],
        ...(callbackUrl ? { callback_url: `${callbackUrl}${i}` } : {}),
      }),
    });
    if (response.status !== 202) non2xx += 1;
    await response.arrayBuffer();
  });
  const placedAt = performance.now();
  await waitUntil("the orders to complete", async () => (await ordersProcessing(db)) === 0);
  const completedAt = performance.now();
  if (callbackUrl) await waitUntil("the webhooks", async () => hooks.state.count - hooksBefore >= count);
  const settled = await db
    .selectFrom("orders")
    .select(["status", sql`count(*)`.as("n")])
    .groupBy("status")
    .execute();
  const complete = Number(settled.find((row) => row.status === "complete")?.n ?? 0);
  const failed = Number(settled.find((row) => row.status === "failed")?.n ?? 0);
  if (complete + failed - before !== count) throw new Error(`expected ${count} new orders, found ${settled}`);
  return {
    placing,
    placeSeconds: (placedAt - started) / 1000,
    completeSeconds: (completedAt - started) / 1000,
    deliverSeconds: callbackUrl ? (hooks.state.lastAt - started) / 1000 : undefined,
    failed,
    non2xx,
  };
}

/** Places `count` orders over HTTP and returns once every one is accepted (nothing waits for their processing). */
async function placeOnly({ base, token, addresses, count }) {
  let non2xx = 0;
  await pool(count, async (i) => {
    const response = await fetch(`${base}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ address: addresses[i % addresses.length] }),
    });
    if (response.status !== 202) non2xx += 1;
    await response.arrayBuffer();
  });
  return non2xx;
}

/**
 * Orders processed per second by `workers` `lotline serve --role worker` processes, draining a queue of
 * `DRAIN_ORDERS` orders placed while none ran; timed from 10 % to 90 % done, so that each process's start (its
 * first orders load the atlases) does not count.
 */
async function drainRate({ database, databaseUrl, api, token, addresses, workers }) {
  const non2xx = await placeOnly({ base: api, token, addresses, count: DRAIN_ORDERS });
  const children = await Promise.all(
    Array.from({ length: workers }, async () =>
      serve(databaseUrl, await freePort(), { LOTLINE_MANAGEMENT_PORT: "0" }, ["--role", "worker"]),
    ),
  );
  const marks = {};
  const cpuAtStart = children.map((child) => cpuSeconds(child.pid));
  const startedAt = performance.now();
  let busy = [];
  try {
    await waitUntil(
      "the queue to drain",
      async () => {
        const done = DRAIN_ORDERS - (await ordersProcessing(database.db));
        if (marks.tenth === undefined && done >= DRAIN_ORDERS * 0.1) marks.tenth = { at: performance.now(), done };
        if (marks.ninetieth === undefined && done >= DRAIN_ORDERS * 0.9)
          marks.ninetieth = { at: performance.now(), done };
        if (done === DRAIN_ORDERS) {
          const wall = (performance.now() - startedAt) / 1000;
          busy = children.map((child, i) => (cpuSeconds(child.pid) - (cpuAtStart[i] ?? 0)) / wall);
        }
        return done === DRAIN_ORDERS;
      },
      50,
    );
  } finally {
    for (const child of children) await stop(child);
  }
  const seconds = (marks.ninetieth.at - marks.tenth.at) / 1000;
  return { rate: (marks.ninetieth.done - marks.tenth.done) / seconds, seconds, non2xx, busy };
}

function table(rows) {
  const header = ["measurement", "rate/s", "p50 ms", "p99 ms", "count", "seconds", "non-2xx", "vs baseline"];
  const cells = rows.map((row) => [
    row.name,
    row.rate.toFixed(1),
    row.p50 === undefined ? "" : row.p50.toFixed(2),
    row.p99 === undefined ? "" : row.p99.toFixed(2),
    String(row.total),
    row.seconds.toFixed(2),
    String(row.non2xx),
    row.ratio ?? "",
  ]);
  printTable(header, cells);
}

/**
 * The CPU one `process_order` takes in this process, order by order (placed here first, with 30 more to warm the
 * caches): the cost of an order's own computation, without HTTP, claims or webhooks around it.
 */
async function computeCost({ database, orgId, addresses }) {
  const ids = [];
  for (let i = 0; i < COMPUTE_ORDERS + 30; i++) {
    ids.push((await createOrder(database, orgId, { address: addresses[i % addresses.length] })).order_id);
  }
  const run = processOrderJob(database);
  for (const id of ids.splice(0, 30)) await run({ order_id: id });
  const costs = [];
  for (const id of ids) {
    const before = process.cpuUsage();
    await run({ order_id: id });
    const used = process.cpuUsage(before);
    costs.push((used.user + used.system) / 1000);
  }
  costs.sort((a, b) => a - b);
  const at = (q) => costs[Math.min(costs.length - 1, Math.floor(q * costs.length))] ?? 0;
  return { p50: at(0.5), p90: at(0.9) };
}

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "lotline-bench-"));
  const cleanups = [() => rmSync(folder, { recursive: true, force: true })];
  let failed = false;
  const watchdog = setTimeout(() => {
    print("FAILED: the bench ran over 600 s");
    process.exit(1);
  }, 600_000);
  watchdog.unref();
  try {
    print(
      `lotline orders bench: node ${process.version}, ${availableParallelism()} CPUs (load average ` +
        `${loadavg()[0].toFixed(2)}), ${ORDERS} orders per phase, ${CONCURRENCY} in flight; ` +
        "server: `lotline serve` as a child process (job runner in it)",
    );
    const prepared = await benchTenant(folder, DATABASE_URL, cleanups);
    const { database, services, org, client } = prepared;
    const hooks = await receiver();
    cleanups.unshift(() => new Promise((resolve) => hooks.server.close(resolve)));
    await addCallbackPrefix(services.db, org.org_id, hooks.url);
    const rows = await database.db
      .selectFrom("addresses")
      .select(ADDRESS_PART_COLUMNS)
      .where("unit", "is", null)
      .orderBy("address_id")
      .execute();
    const addresses = rows.map((row) => addressLine(row).split(",")[0]);
    print(
      `database: ${database.dialect}${database.dialect === "sqlite" ? ` (${folder})` : ""}, ${addresses.length} demo addresses`,
    );

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = await serve(prepared.url, port, { LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" });
    cleanups.unshift(() => stop(child));
    const token = await accessToken(base, client);

    // 1. The baseline of the server's own request rate: an authenticated GET that touches little else.
    const meOptions = { url: `${base}/v1/me`, headers: { authorization: `Bearer ${token}` }, connections: CONCURRENCY };
    await autocannon({ ...meOptions, duration: 1 });
    const meResult = await autocannon({ ...meOptions, duration: BASELINE_SECONDS });
    const me = {
      rate: meResult.requests.average,
      p50: meResult.latency.p50,
      p99: meResult.latency.p99,
      total: meResult.requests.total,
      seconds: BASELINE_SECONDS,
      non2xx: meResult.non2xx + meResult.errors + meResult.timeouts,
    };

    // Warm-up, not measured: the first orders load the atlases and fill the caches.
    await orderPhase({ base, token, addresses, database, hooks, count: 30 });

    // 2. Orders without a callback, end to end, with the server's CPU time for them.
    const cpuBefore = cpuSeconds(child.pid);
    const plain = await orderPhase({ base, token, addresses, database, hooks });
    const cpuPerOrderMs = ((cpuSeconds(child.pid) - cpuBefore) * 1000) / ORDERS;

    // 3. The baseline of the receiver: raw POSTs from Node with the same concurrency, for as many as phase 4 sends.
    const rawBody = JSON.stringify({ type: "order.complete", data: { order_id: "ord_bench", status: "complete" } });
    const rawStarted = performance.now();
    let rawNon2xx = 0;
    const raw = await pool(ORDERS * 4, async () => {
      const hit = await fetch(`${hooks.url}raw`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: rawBody,
      });
      if (hit.status !== 204) rawNon2xx += 1;
      await hit.arrayBuffer();
    });
    const rawSeconds = (performance.now() - rawStarted) / 1000;

    // 4. Orders with a callback: first order placed → last webhook received.
    const hooked = await orderPhase({ base, token, addresses, database, callbackUrl: `${hooks.url}orders/`, hooks });

    // 5. Processing alone, by one and then two worker processes (the API process does no jobs).
    await stop(child);
    cleanups.shift();
    const apiPort = await freePort();
    const apiBase = `http://127.0.0.1:${apiPort}`;
    const api = await serve(prepared.url, apiPort, {}, ["--role", "api"]);
    cleanups.unshift(() => stop(api));
    const apiToken = await accessToken(apiBase, client);
    const drains = [];
    for (const workers of [1, 2]) {
      drains.push({
        workers,
        ...(await drainRate({
          database,
          databaseUrl: prepared.url,
          api: apiBase,
          token: apiToken,
          addresses,
          workers,
        })),
      });
    }

    // 6. One order's own computation, in this process.
    const compute = await computeCost({ database, orgId: org.org_id, addresses });

    const placeRate = ORDERS / plain.placeSeconds;
    const completeRate = ORDERS / plain.completeSeconds;
    const deliverRate = ORDERS / hooked.deliverSeconds;
    const rawRate = (ORDERS * 4) / rawSeconds;
    print();
    table([
      { name: "1. GET /v1/me (baseline)", ...me },
      {
        name: "2a. POST /v1/orders accepted",
        rate: placeRate,
        ...plain.placing,
        total: ORDERS,
        seconds: plain.placeSeconds,
        non2xx: plain.non2xx,
        ratio: `${(placeRate / me.rate).toFixed(3)} × 1`,
      },
      {
        name: "2b. orders completed, end to end",
        rate: completeRate,
        total: ORDERS,
        seconds: plain.completeSeconds,
        non2xx: plain.non2xx,
        ratio: `${(completeRate / me.rate).toFixed(3)} × 1`,
      },
      {
        name: "3. raw POST to the receiver (baseline)",
        rate: rawRate,
        ...raw,
        total: ORDERS * 4,
        seconds: rawSeconds,
        non2xx: rawNon2xx,
      },
      {
        name: "4. webhooks delivered, from 1st order",
        rate: deliverRate,
        total: ORDERS,
        seconds: hooked.deliverSeconds,
        non2xx: hooked.non2xx,
        ratio: `${(deliverRate / rawRate).toFixed(3)} × 3`,
      },
    ]);
    for (const drain of drains) {
      print(
        `5. ${drain.workers} worker process${drain.workers > 1 ? "es" : ""}: ${drain.rate.toFixed(1)} orders processed/s ` +
          `(${DRAIN_ORDERS} queued, 10 % → 90 % in ${drain.seconds.toFixed(2)} s; each process busy ` +
          `${drain.busy.map((share) => `${Math.round(share * 100)} %`).join(", ")} of the time)` +
          (drain.workers > 1 ? `; ${(drain.rate / (drains[0]?.rate ?? 1)).toFixed(2)} × one worker` : ""),
      );
    }
    print(
      `6. process_order alone, in this process: CPU per order p50 ${compute.p50.toFixed(2)} ms, ` +
        `p90 ${compute.p90.toFixed(2)} ms (${COMPUTE_ORDERS} orders after 30 to warm up)`,
    );
    print();
    print(
      `server CPU per order in phase 2, placed and processed: ${cpuPerOrderMs.toFixed(2)} ms ` +
        "(user and system time of the `lotline serve` process over the phase)",
    );
    print(
      `phase 4 orders were accepted in ${hooked.placeSeconds.toFixed(2)} s and completed in ` +
        `${hooked.completeSeconds.toFixed(2)} s; ${plain.failed + hooked.failed} orders failed (no address match)`,
    );
    if (me.non2xx || plain.non2xx || hooked.non2xx || rawNon2xx || drains.some((drain) => drain.non2xx)) {
      failed = true;
      print("FAILED: some requests were not answered 2xx");
    } else print("all responses 2xx");
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
  if (failed) process.exitCode = 1;
}

await main();
