import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, positiveInteger, print, printTable } from "../../../scripts/bench-kit.js";
import { ADDRESS_PART_COLUMNS, addressLine } from "../dist/geo/store/address-line.js";
import { accessToken, benchTenant, serve, stop } from "./served.js";

const ATTACKERS = positiveInteger("BENCH_ATTACKERS", 8);
const PHASE_MS = positiveInteger("BENCH_PHASE_SECONDS", 5) * 1000;
const STAR_POSITIONS = 3200;
const HEALTHZ_GOAL_MS = 50;
const ORDER_GOAL_RATIO = 2;
const DATABASE_URL = process.env.BENCH_DATABASE_URL;

/** A star polygon {n/k}: positions on a circle, each joined to one almost opposite, so nearly all edges cross. */
function starPolygon([lon, lat], radius, vertices) {
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  let step = Math.floor(vertices / 2) - 1;
  while (gcd(vertices, step) !== 1) step -= 1;
  const ring = Array.from({ length: vertices }, (_, i) => {
    const t = (2 * Math.PI * ((i * step) % vertices)) / vertices;
    return [Number((lon + radius * Math.cos(t)).toFixed(7)), Number((lat + radius * Math.sin(t)).toFixed(7))];
  });
  return { type: "Polygon", coordinates: [[...ring, ring[0]]] };
}

/** Runs `task` one call after another until `stop()`; answers the latencies' p50 and p99 and the statuses. */
async function sequentially(task, stop) {
  const latencies = [];
  const statuses = new Map();
  while (!stop()) {
    const started = performance.now();
    const status = await task();
    latencies.push(performance.now() - started);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), count: latencies.length, statuses };
}

/**
 * One phase: `measure` (healthz or normal orders) one request after another, while `attackers` star requests stay
 * in flight. Healthz and orders get phases of their own, so that healthz does not measure the processing of the
 * orders (the job runner shares the event loop) and the two figures stay comparable with their idle baselines.
 */
async function phase({ base, token, addresses, star, attackers, measure }) {
  const until = performance.now() + PHASE_MS;
  const stop = () => performance.now() > until;
  const post = (body) =>
    fetch(`${base}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    });
  let next = 0;
  const attacks = { count: 0, statuses: new Map() };
  const attacking = Array.from({ length: attackers }, async () => {
    while (!stop()) {
      const response = await post(star);
      await response.arrayBuffer();
      attacks.count += 1;
      attacks.statuses.set(response.status, (attacks.statuses.get(response.status) ?? 0) + 1);
    }
  });
  const requests = {
    healthz: () => fetch(`${base}/healthz`),
    orders: () => post(JSON.stringify({ address: addresses[next++ % addresses.length] })),
  };
  const [figures] = await Promise.all([
    sequentially(async () => {
      const response = await requests[measure]();
      await response.arrayBuffer();
      return response.status;
    }, stop),
    ...attacking,
  ]);
  return { ...figures, attacks };
}

const statusList = (statuses) => [...statuses].map(([status, n]) => `${n}×${status}`).join(" ");

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "lotline-bench-"));
  const cleanups = [() => rmSync(folder, { recursive: true, force: true })];
  let failed = false;
  const watchdog = setTimeout(() => {
    print("FAILED: the bench ran over 90 s");
    process.exit(1);
  }, 90_000);
  watchdog.unref();
  try {
    print(
      `lotline abuse bench: node ${process.version}, ${availableParallelism()} CPUs (load average ` +
        `${loadavg()[0].toFixed(2)}), ${ATTACKERS} star polygons of ${STAR_POSITIONS} positions in flight, ` +
        `${PHASE_MS / 1000} s a phase; server: \`lotline serve\` as a child process (job runner in it)`,
    );
    const prepared = await benchTenant(folder, DATABASE_URL, cleanups);
    const { database, client } = prepared;
    const rows = await database.db
      .selectFrom("addresses")
      .select([...ADDRESS_PART_COLUMNS, "lon", "lat"])
      .where("unit", "is", null)
      .orderBy("address_id")
      .execute();
    const addresses = rows.map((row) => addressLine(row).split(",")[0]);
    const [first] = rows;
    const star = JSON.stringify({
      address: addresses[0],
      parcel_boundary: starPolygon([first.lon, first.lat], 0.0005, STAR_POSITIONS),
    });
    print(`database: ${database.dialect}, star polygon body ${(star.length / 1024).toFixed(0)} KB`);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = await serve(prepared.url, port);
    cleanups.unshift(() => stop(child));
    const token = await accessToken(base, client);

    // A short warm-up (connections, the geometry worker's start, the first queries), then idle, then under attack.
    const run = (measure, attackers) => phase({ base, token, addresses, star, attackers, measure });
    await run("orders", 1);
    const idle = { healthz: await run("healthz", 0), orders: await run("orders", 0) };
    const attacked = { healthz: await run("healthz", ATTACKERS), orders: await run("orders", ATTACKERS) };
    const attacks = {
      count: attacked.healthz.attacks.count + attacked.orders.attacks.count,
      statuses: new Map([...attacked.healthz.attacks.statuses]),
    };
    for (const [status, n] of attacked.orders.attacks.statuses) {
      attacks.statuses.set(status, (attacks.statuses.get(status) ?? 0) + n);
    }

    const healthzRatio = attacked.healthz.p99 / idle.healthz.p99;
    const orderRatio = attacked.orders.p50 / idle.orders.p50;
    const order99Ratio = attacked.orders.p99 / idle.orders.p99;
    print();
    const cell = (name, figures, ratio = "") => [
      name,
      figures.p50.toFixed(2),
      figures.p99.toFixed(2),
      String(figures.count),
      statusList(figures.statuses),
      ratio,
    ];
    printTable(
      ["measurement", "p50 ms", "p99 ms", "count", "statuses", "vs baseline"],
      [
        cell("1. GET /healthz, idle (baseline)", idle.healthz),
        cell("2. normal order, idle (baseline)", idle.orders),
        cell(`3. GET /healthz, ${ATTACKERS} stars in flight`, attacked.healthz, `p99 ${healthzRatio.toFixed(2)} × 1`),
        cell(
          `4. normal order, ${ATTACKERS} stars in flight`,
          attacked.orders,
          `p50 ${orderRatio.toFixed(2)}, p99 ${order99Ratio.toFixed(2)} × 2`,
        ),
      ],
    );
    print();
    print(
      `star polygon orders answered: ${attacks.count} in ${(2 * PHASE_MS) / 1000} s (${statusList(attacks.statuses)})`,
    );
    const goals = [
      [
        `/healthz p99 under attack ${attacked.healthz.p99.toFixed(1)} ms < ${HEALTHZ_GOAL_MS} ms`,
        attacked.healthz.p99 < HEALTHZ_GOAL_MS,
      ],
      [
        `normal order p50 under attack ${orderRatio.toFixed(2)} × idle < ${ORDER_GOAL_RATIO}`,
        orderRatio < ORDER_GOAL_RATIO,
      ],
      ["every star polygon refused with 422", [...attacks.statuses.keys()].every((status) => status === 422)],
      [
        "every normal order accepted with 202",
        [...idle.orders.statuses.keys(), ...attacked.orders.statuses.keys()].every((status) => status === 202),
      ],
    ];
    for (const [goal, met] of goals) {
      print(`${met ? "met" : "MISSED"}: ${goal}`);
      if (!met) failed = true;
    }
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
  if (failed) process.exitCode = 1;
}

await main();
