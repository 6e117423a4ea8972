import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "../config/config.js";
import { importDemoNeighbourhood } from "../geo/import/import-demo-neighbourhood.js";
import { createServices } from "../services.js";
import { addCallbackPrefix } from "../tenancy/callback-prefixes.js";
import { createTenant, freePort, type TestTenant } from "../test/test-app.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";

/**
 * The real `lotline serve` in a child process, killed with SIGKILL at random moments while orders are placed and
 * processed, and restarted each time: on the last restart every order must complete and every webhook must be
 * delivered. It runs the compiled `dist` (`npx tsc --build` first).
 *
 * The server leases a job for 30 s and treats an unanswered Idempotency-Key as abandoned after 30 s, so the work a
 * kill interrupted is taken up again about 30 s later: the run lasts some 40–50 s on either database.
 */
const BIN = fileURLToPath(new URL("../../bin/lotline.js", import.meta.url));
const COMPILED = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const ORDERS = 200;
const LANES = 8;
const SETTLE_MS = 60_000;

interface Hit {
  webhookId: string;
  body: string;
  status: number;
}

let test: TestDatabase;
let tenant: TestTenant;
let receiver: Server;
let hookUrl: string;
const hits: Hit[] = [];
const addresses: string[] = [];

beforeAll(async () => {
  if (!existsSync(COMPILED)) throw new Error(`${COMPILED} is missing: run \`npx tsc --build\` before the tests`);
  test = await createTestDatabase();
  await importDemoNeighbourhood(test.database);
  const services = await createServices(loadConfig({ LOTLINE_DATABASE_URL: test.url }), test.database);
  tenant = await createTenant(services);
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      // One answer in ten is a 500, so deliveries are retried as well as interrupted.
      const status = Math.random() < 0.1 ? 500 : 204;
      hits.push({ webhookId: String(request.headers["webhook-id"]), body, status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/`;
  await addCallbackPrefix(test.database.db, tenant.orgId, hookUrl);
  const rows = await test.database.db
    .selectFrom("addresses")
    .select("display")
    .where("unit", "is", null)
    .orderBy("address_id")
    .limit(ORDERS)
    .execute();
  addresses.push(...rows.map((row) => row.display.split(",")[0] ?? ""));
}, 30_000);

afterAll(async () => {
  if (server?.exitCode === null) server.kill("SIGKILL");
  await new Promise((resolve) => receiver?.close(resolve));
  await test?.destroy();
});

let server: ChildProcess | undefined;
let output = "";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `lotline serve` on `port` and resolves once /healthz answers. */
async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", String(port)], {
    env: {
      PATH: process.env.PATH ?? "",
      LOTLINE_DATABASE_URL: test.url,
      LOTLINE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
      LOTLINE_LOG_LEVEL: "error",
      LOTLINE_TOKEN_SOFT_LIMIT_HOUR: "0",
      LOTLINE_TOKEN_HARD_LIMIT_HOUR: "0",
      LOTLINE_TOKEN_SOFT_LIMIT_DAY: "0",
      LOTLINE_TOKEN_HARD_LIMIT_DAY: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  server = child;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`lotline exited early: ${output}`);
    if (Date.now() > deadline) throw new Error(`lotline did not come up: ${output}`);
    await sleep(50);
  }
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

it("loses no order and no webhook when the server is killed with SIGKILL again and again", async () => {
  const started = Date.now();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let child = await startServer(port);

  const tokenResponse = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: tenant.clientId,
      client_secret: tenant.clientSecret,
      audience: `${base}/v1`,
    }),
  });
  expect(tokenResponse.status).toBe(200);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

  // The client: every order is retried until a 202 comes back (a keyed order with its same key and body).
  const accepted = new Map<number, string>();
  const keyed = new Set<number>();
  const later: Promise<void>[] = [];
  let cutOff = 0;
  const place = async (i: number): Promise<void> => {
    const key = i % 3 === 0 ? `crash-${i}` : undefined;
    if (key) keyed.add(i);
    const body = JSON.stringify({
      address: addresses[i % addresses.length],
      callback_url: `${hookUrl}orders/${i}`,
      ...(key ? { external_id: `KEYED-${i}` } : {}),
    });
    const deadline = started + 60_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`order ${i} was never accepted`);
      let response: Response;
      try {
        response = await fetch(`${base}/v1/orders`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            ...(key ? { "idempotency-key": key } : {}),
          },
          body,
        });
      } catch {
        cutOff += 1; // refused or cut off: the server is down or was killed mid-request
        await sleep(50);
        continue;
      }
      if (response.status === 202) {
        accepted.set(i, ((await response.json()) as { order_id: string }).order_id);
        return;
      }
      const text = await response.text();
      // 409: a keyed request cut off by a kill holds its key until it counts as abandoned (30 s); try again later
      // and go on with the next order meanwhile.
      if (response.status === 409) {
        later.push(sleep(500).then(() => place(i)));
        return;
      }
      if (response.status === 503) {
        await sleep(50);
        continue;
      }
      throw new Error(`order ${i}: ${response.status} ${text}`);
    }
  };

  let next = 0;
  const lanes = Array.from({ length: LANES }, async () => {
    while (next < ORDERS) await place(next++);
  });
  const lanesDone = Promise.all(lanes);
  const placing = lanesDone.then(async () => {
    while (later.length > 0) await Promise.all(later.splice(0));
  });

  // The killer: 2–3 kills at random points of the placing, one more once every lane is through (while the last
  // orders are processed and keyed orders cut off by a kill wait for their keys).
  const kills = 3 + Math.floor(Math.random() * 2);
  const during = Array.from({ length: kills - 1 }, () => Math.floor(ORDERS * (0.1 + Math.random() * 0.8))).sort(
    (a, b) => a - b,
  );
  const killedAt: string[] = [];
  for (let k = 0; k < kills; k++) {
    const threshold = during[k];
    if (threshold === undefined) await lanesDone;
    else while (accepted.size < threshold) await sleep(5);
    await sleep(Math.random() * 300);
    killedAt.push(`${accepted.size} accepted at ${Date.now() - started} ms`);
    await kill(child);
    await sleep(Math.random() * 300);
    child = await startServer(port);
  }
  await placing;
  const placedMs = Date.now() - started;

  const { db } = test.database;
  const count = async (table: "orders" | "jobs" | "webhook_events", column: string, values: string[]) => {
    const row = await db
      .selectFrom(table)
      .select(sql<number>`count(*)`.as("n"))
      .where(sql.ref(column), "in", values)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const settleBy = Date.now() + SETTLE_MS;
  for (;;) {
    const busy =
      (await count("orders", "status", ["processing"])) +
      (await count("jobs", "status", ["pending", "running"])) +
      (await count("webhook_events", "status", ["pending"]));
    if (busy === 0) break;
    if (Date.now() > settleBy) break; // the assertions below say what is left
    await sleep(200);
  }
  const settledMs = Date.now() - started;
  await kill(child);

  const orders = await db
    .selectFrom("orders")
    .leftJoin("properties", "properties.property_id", "orders.property_id")
    .select(["orders.order_id", "orders.status", "orders.reason", "orders.callback_url", "properties.external_id"])
    .execute();
  const jobs = await db.selectFrom("jobs").select(["job_id", "kind", "status", "attempts", "last_error"]).execute();
  const events = await db.selectFrom("webhook_events").select(["event_id", "status", "body"]).execute();
  process.stdout.write(
    `crash test on ${test.database.dialect}: ${kills} kills (${killedAt.join("; ")}), ${cutOff} requests refused or ` +
      `cut off; ${accepted.size} orders accepted, ${orders.length} in the database, all placed after ${placedMs} ms, ` +
      `settled after ${settledMs} ms; ${jobs.filter((job) => job.attempts > 1).length} jobs ran more than once; ` +
      `${hits.length} webhook requests, ${hits.filter((hit) => hit.status !== 204).length} answered 500\n`,
  );

  // Every order the client saw accepted exists and completed; so did any order a cut-off POST created unseen.
  expect(accepted.size).toBe(ORDERS);
  const byId = new Map(orders.map((order) => [order.order_id, order]));
  for (const orderId of accepted.values()) expect(byId.get(orderId)?.status, orderId).toBe("complete");
  expect(orders.filter((order) => order.status !== "complete")).toEqual([]);
  // A keyed order exists exactly once, and its retries after a kill answered that very order.
  for (const i of keyed) {
    const matching = orders.filter((order) => order.external_id === `KEYED-${i}`);
    expect(matching.map((order) => order.order_id)).toEqual([accepted.get(i)]);
  }

  // Nothing is left to do, and nothing was given up on.
  expect(jobs.filter((job) => job.status !== "done")).toEqual([]);
  expect(events.filter((event) => event.status !== "delivered")).toEqual([]);

  // Every order with a callback was delivered at least once, under one event whose copies are identical.
  const delivered = hits.filter((hit) => hit.status === 204);
  for (const order of orders) {
    expect(order.callback_url).not.toBeNull();
    const copies = hits.filter((hit) => hit.body.includes(`"${order.order_id}"`));
    expect(
      delivered.some((hit) => hit.body.includes(`"${order.order_id}"`)),
      order.order_id,
    ).toBe(true);
    expect(new Set(copies.map((hit) => hit.webhookId)).size, order.order_id).toBe(1);
    expect(new Set(copies.map((hit) => hit.body)).size, order.order_id).toBe(1);
  }
  const bodies = new Map(events.map((event) => [event.event_id, event.body]));
  for (const hit of hits) expect(hit.body).toBe(bodies.get(hit.webhookId));
  expect(new Set(delivered.map((hit) => hit.webhookId)).size).toBe(events.length);
  expect(events.length).toBe(orders.length);
}, 110_000);
