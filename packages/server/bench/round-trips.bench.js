/**
 * `npm run bench:round-trips`: how many round trips to PostgreSQL an order waits for, one after another, as it is
 * placed, processed (`process_order`) and taken by a worker (claimed, processed, completed). In production the
 * database is across a network, where each costs a fraction of a millisecond to milliseconds, and an order's wall
 * time grows by that many. Orders over Cambridge's real parcels, buildings and layers run straight on loopback and
 * through a proxy that holds every chunk `BENCH_ONE_WAY_MS` each way; `select 1`, one round trip, is timed both
 * ways in the same run as the baseline. The round trips waited are what the proxy added divided by what it added to
 * `select 1`.
 *
 * `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres): the server, in a throwaway schema.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { positiveInteger, print, printTable } from "../../../scripts/bench-kit.js";
import { openDatabase } from "../dist/db/database.js";
import { migrateToLatest } from "../dist/db/migrate.js";
import { orderPoints, writeTiledDataset } from "./scale-data.js";
import { timed } from "./scale-reference.js";
import { prepareDatabase } from "./served.js";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ORDERS = positiveInteger("BENCH_ORDERS", 200);
const ONE_WAY_MS = positiveInteger("BENCH_ONE_WAY_MS", 1);
const ROUNDS = positiveInteger("BENCH_ROUNDS", 2);
const WARM_UP_ORDERS = 30;
const PINGS = 300;

const DATA = fileURLToPath(new URL("../../../../shared/data/cambridge/", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/lotline.js", import.meta.url));
const ORDERS_SCRIPT = fileURLToPath(new URL("./scale-orders.js", import.meta.url));
const PROXY_SCRIPT = fileURLToPath(new URL("./delaying-proxy.js", import.meta.url));

/** Parcels, buildings and the seven layers of one tile, each imported by `lotline import` as an operator would. */
async function importCambridge(url, files) {
  const env = { ...process.env, LOTLINE_DATABASE_URL: url, LOTLINE_LOG_LEVEL: "error" };
  const run = (args) => timed(process.execPath, [BIN, "import", ...args, "--json"], env);
  await run(["parcels", files.parcels, "--id-field", "ML"]);
  await run(["buildings", files.buildings, "--id-field", "BID"]);
  for (const layer of files.layers) await run(["layer", layer.file, "--name", layer.name]);
}

/** The proxy in a process of its own; answers its port and how to stop it. */
async function startProxy(url) {
  const target = new URL(url);
  const child = spawn(process.execPath, [PROXY_SCRIPT, target.hostname, target.port || "5432", String(ONE_WAY_MS)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [chunk] = await once(child.stdout, "data");
  return { port: Number(String(chunk).trim()), stop: () => child.kill() };
}

/** `url` with its host and port those of the proxy on loopback. */
function throughProxy(url, port) {
  const proxied = new URL(url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(port);
  return proxied.href;
}

/** Mean milliseconds of `select 1`, one at a time, after a warm-up. */
async function pingMs(url) {
  const database = openDatabase(url);
  try {
    for (let i = 0; i < 20; i++) await sql`select 1`.execute(database.db);
    const started = performance.now();
    for (let i = 0; i < PINGS; i++) await sql`select 1`.execute(database.db);
    return (performance.now() - started) / PINGS;
  } finally {
    await database.close();
  }
}

/**
 * Mean wall milliseconds of placing an order at each point and of processing it, in a process of its own (see
 * `scale-orders.js`): by `process_order` itself, or with `runner` by the job runner as a worker takes it.
 */
async function orderMs(url, pointsFile, mode) {
  const args = [ORDERS_SCRIPT, url, pointsFile, String(WARM_UP_ORDERS), ...(mode ? [mode] : [])];
  const { stdout } = await timed(process.execPath, args);
  const { wall, placed, complete } = JSON.parse(stdout);
  if (complete !== wall.length) throw new Error(`${wall.length - complete} orders did not complete`);
  return { processed: mean(wall), placed: mean(placed) };
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "lotline-round-trips-bench-"));
  const cleanups = [() => rmSync(folder, { recursive: true, force: true })];
  try {
    print(
      `lotline round-trips bench: node ${process.version}, ${availableParallelism()} CPUs, PostgreSQL, ` +
        `${ORDERS} orders a round, ${ROUNDS} rounds, ${ONE_WAY_MS} ms each way through the proxy`,
    );
    mkdirSync(join(folder, "data"));
    const { files } = await writeTiledDataset(DATA, join(folder, "data"), 1);
    const prepared = await prepareDatabase(folder, DATABASE_URL);
    cleanups.unshift(prepared.drop);
    cleanups.unshift(() => prepared.database.close());
    await migrateToLatest(prepared.database);
    await importCambridge(prepared.url, files);
    const pointsFile = join(folder, "points.json");
    writeFileSync(pointsFile, JSON.stringify(await orderPoints(DATA, ORDERS + WARM_UP_ORDERS)));
    const proxy = await startProxy(prepared.url);
    cleanups.unshift(proxy.stop);
    const proxied = throughProxy(prepared.url, proxy.port);

    // In turns, so that a drift in the machine's speed falls on both sides alike.
    const measured = { direct: [], proxied: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [side, url] of [
        ["direct", prepared.url],
        ["proxied", proxied],
      ]) {
        const orders = await orderMs(url, pointsFile);
        const runner = await orderMs(url, pointsFile, "runner");
        measured[side].push({ ping: await pingMs(url), ...orders, runner: runner.processed });
      }
    }
    const meanOf = (side, key) => mean(measured[side].map((round) => round[key]));
    const trip = meanOf("proxied", "ping") - meanOf("direct", "ping");
    const rows = [
      ["ping", "select 1 (one round trip)"],
      ["placed", "placing an order (createOrder)"],
      ["processed", "processing it (process_order)"],
      ["runner", "a worker claiming, processing and completing it"],
    ].map(([key, label]) => {
      const [direct, delayed] = [meanOf("direct", key), meanOf("proxied", key)];
      const added = delayed - direct;
      return [
        label,
        `${direct.toFixed(2)} ms`,
        `${delayed.toFixed(2)} ms`,
        `${added.toFixed(2)} ms`,
        (added / trip).toFixed(1),
      ];
    });
    print();
    printTable(["", "on loopback", "through the proxy", "added", "round trips waited"], rows);
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

await main();
