import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OrderBatch, OrderBatchList, OrderBatchResult, OrderList } from "@lotline/contract";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "../config/config.js";
import type { Schema } from "../db/schema.js";
import { importDemoNeighbourhood } from "../geo/import/import-demo-neighbourhood.js";
import { addressLine } from "../geo/store/address-line.js";
import { createServices } from "../services.js";
import { addCallbackPrefix } from "../tenancy/callback-prefixes.js";
import { killAllLotlines, killLotline, requireCompiledLotline, startLotline } from "../test/lotline-process.js";
import { csvBook, jsonBook, type OrderBook } from "../test/order-books.js";
import { accessTokenOver, createTenant, freePort, type TestTenant } from "../test/test-app.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { visibleOrder } from "./visible-orders.js";

/**
 * The real `lotline serve` in a child process, killed with SIGKILL at random moments while single orders and two
 * books of orders (a CSV one, uploaded slowly, and a JSON one) are placed and processed, and restarted each time: on
 * the last restart every order must complete and every webhook must be delivered. One kill lands while the CSV book
 * is taken in, past its first 500-row transaction, so an intake is cut off. It runs the compiled `dist`
 * (`npx tsc --build` first).
 *
 * The server leases a job for 30 s and treats an unanswered Idempotency-Key as abandoned after 30 s, so the work a
 * kill interrupted is taken up again about 30 s later: the run lasts some 50–75 s on either database.
 */
const ORDERS = 200;
const LANES = 8;
/**
 * How long the work left after the last kill may take to settle. Alone it takes some 10 s; beside the whole suite on
 * a slow hour of a 2-core machine it passed 60 s with six orders of a batch still processing.
 */
const SETTLE_MS = 120_000;
/**
 * How long placing may take, from the test's start, before an order or a book counts as never accepted. A request
 * a kill cuts off holds its Idempotency-Key for 30 s, so an order cut off by the last kill is accepted some 30 s
 * later; beside the whole suite and an import on a 2-core machine the last kill came past 30 s and 60 s was too
 * little.
 */
const PLACE_MS = 110_000;

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
  requireCompiledLotline();
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
    .selectAll()
    .where("unit", "is", null)
    .orderBy("address_id")
    .limit(ORDERS)
    .execute();
  addresses.push(...rows.map((row) => addressLine(row).split(",")[0] ?? ""));
}, 30_000);

afterAll(async () => {
  await killAllLotlines();
  await new Promise((resolve) => receiver?.close(resolve));
  await test?.destroy();
});

/** Rows written so far by intakes still running (or cut off): a kill now leaves an intake half taken in. */
async function rowsTakenIn(db: Kysely<Schema>): Promise<number> {
  const row = await db
    .selectFrom("order_batch_rows")
    .innerJoin("order_batches", "order_batches.batch_id", "order_batch_rows.batch_id")
    .select(sql<number>`count(*)`.as("n"))
    .where("order_batches.status", "=", "intake")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("loses no order, no batch row and no webhook when the server is killed with SIGKILL again and again", async () => {
  const started = Date.now();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess = await startLotline(test.url, port);

  const token = await accessTokenOver(base, `${base}/v1`, tenant);
  const call = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };

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
    const deadline = started + PLACE_MS;
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

  // The books, each with its own Idempotency-Key, retried with the same key and body until a 202 comes back.
  const csv = csvBook("CSVBOOK", addresses, hookUrl);
  const books = [csv, jsonBook("JSONBOOK", addresses, hookUrl)];
  const acceptedBatches = new Map<OrderBook, string>();
  const placeBook = async (book: OrderBook): Promise<void> => {
    const deadline = started + PLACE_MS + 10_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`${book.name} was never accepted`);
      const { path, init } = book.request();
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          ...init,
          headers: {
            ...(init.headers as Record<string, string>),
            authorization: `Bearer ${token}`,
            "idempotency-key": `crash-${book.name}`,
          },
        });
      } catch {
        cutOff += 1;
        await sleep(50);
        continue;
      }
      if (response.status === 202) {
        acceptedBatches.set(book, ((await response.json()) as { batch_id: string }).batch_id);
        return;
      }
      const text = await response.text();
      // 409: an intake a kill cut off holds the book's key until it counts as abandoned (30 s).
      if (response.status === 409 || response.status === 503) {
        await sleep(response.status === 409 ? 500 : 50);
        continue;
      }
      throw new Error(`${book.name}: ${response.status} ${text}`);
    }
  };

  // The killer: once while the CSV book is taken in, past its first transaction of rows (before anything else is
  // placed, which would slow the intake down); 1–2 times at random points of the placing of single orders; once more
  // when every single-order lane is through (while orders of both kinds are processed and requests cut off by a kill
  // wait for their keys).
  const killedAt: string[] = [];
  const killAndRestart = async () => {
    killedAt.push(`${accepted.size} orders and ${acceptedBatches.size} books accepted at ${Date.now() - started} ms`);
    await killLotline(child);
    await sleep(Math.random() * 300);
    child = await startLotline(test.url, port);
  };
  const { db } = test.database;
  const csvPlaced = placeBook(csv);
  while (!acceptedBatches.has(csv) && (await rowsTakenIn(db)) === 0) await sleep(5);
  await killAndRestart();
  const booksPlaced = Promise.all([csvPlaced, ...books.filter((book) => book !== csv).map(placeBook)]);

  let next = 0;
  const lanes = Array.from({ length: LANES }, async () => {
    while (next < ORDERS) await place(next++);
  });
  const lanesDone = Promise.all(lanes);
  const placing = Promise.all([
    booksPlaced,
    lanesDone.then(async () => {
      while (later.length > 0) await Promise.all(later.splice(0));
    }),
  ]);
  const during = Array.from({ length: 1 + Math.floor(Math.random() * 2) }, () =>
    Math.floor(ORDERS * (0.1 + Math.random() * 0.8)),
  ).sort((a, b) => a - b);
  for (const threshold of during) {
    while (accepted.size < threshold) await sleep(5);
    await sleep(Math.random() * 300);
    await killAndRestart();
  }
  await lanesDone;
  await sleep(Math.random() * 300);
  await killAndRestart();
  await placing;
  const placedMs = Date.now() - started;

  const count = async (table: "jobs" | "webhook_events", column: string, values: string[]) => {
    const row = await db
      .selectFrom(table)
      .select(sql<number>`count(*)`.as("n"))
      .where(sql.ref(column), "in", values)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  // An order of an intake a kill cut off stays `processing` without a job, invisible: only the visible ones count.
  const processing = async () => {
    const row = await db
      .selectFrom("orders")
      .select(sql<number>`count(*)`.as("n"))
      .where("status", "=", "processing")
      .where(visibleOrder)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const settleBy = Date.now() + SETTLE_MS;
  for (;;) {
    const busy =
      (await processing()) +
      (await count("jobs", "status", ["pending", "running"])) +
      (await count("webhook_events", "status", ["pending"]));
    if (busy === 0) break;
    if (Date.now() > settleBy) break; // the assertions below say what is left
    await sleep(200);
  }
  const settledMs = Date.now() - started;

  // What the client reads back, before the server goes: every batch and every order it may see.
  const listedBatches = await call<OrderBatchList>("/v1/order-batches?limit=100");
  const batches = new Map<OrderBook, OrderBatch | undefined>();
  const results = new Map<OrderBook, OrderBatchResult[]>();
  for (const [book, batchId] of acceptedBatches) {
    batches.set(book, await call<OrderBatch>(`/v1/order-batches/${batchId}`));
    const ndjson = await fetch(`${base}/v1/order-batches/${batchId}/results`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const lines = (await ndjson.text()).trimEnd().split("\n");
    results.set(
      book,
      lines.map((line) => JSON.parse(line) as OrderBatchResult),
    );
  }
  const listedOrders = new Set<string>();
  for (let cursor: string | null = ""; cursor !== null; ) {
    const page: OrderList = await call<OrderList>(`/v1/orders?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    for (const order of page.data) listedOrders.add(order.order_id);
    cursor = page.next_cursor;
  }
  await killLotline(child);

  const orders = await db
    .selectFrom("orders")
    .leftJoin("properties", "properties.property_id", "orders.property_id")
    .select([
      "orders.order_id",
      "orders.status",
      "orders.reason",
      "orders.callback_url",
      "orders.batch_id",
      "properties.external_id",
    ])
    .execute();
  const storedBatches = await db.selectFrom("order_batches").select(["batch_id", "status"]).execute();
  const cutOffIntakes = new Set(
    storedBatches.filter((batch) => batch.status === "intake").map((batch) => batch.batch_id),
  );
  const hidden = orders.filter((order) => order.batch_id !== null && cutOffIntakes.has(order.batch_id));
  const visible = orders.filter((order) => !(order.batch_id !== null && cutOffIntakes.has(order.batch_id)));
  const singles = orders.filter((order) => order.batch_id === null);
  const jobs = await db.selectFrom("jobs").select(["job_id", "kind", "status", "attempts", "last_error"]).execute();
  const events = await db.selectFrom("webhook_events").select(["event_id", "status", "body"]).execute();
  process.stdout.write(
    `crash test on ${test.database.dialect}: ${killedAt.length} kills (${killedAt.join("; ")}), ${cutOff} requests ` +
      `refused or cut off; ${accepted.size} orders and ${acceptedBatches.size} batches accepted, ${orders.length} ` +
      `orders in the database (${singles.length} single, ${hidden.length} in ${cutOffIntakes.size} intakes cut ` +
      `off), all placed after ${placedMs} ms, settled after ${settledMs} ms; ` +
      `${jobs.filter((job) => job.attempts > 1).length} jobs ran more than once; ${hits.length} webhook requests, ` +
      `${hits.filter((hit) => hit.status !== 204).length} answered 500\n`,
  );

  // Every order the client saw accepted exists and completed; so did any order a cut-off POST created unseen.
  expect(accepted.size).toBe(ORDERS);
  const byId = new Map(orders.map((order) => [order.order_id, order]));
  for (const orderId of accepted.values()) expect(byId.get(orderId)?.status, orderId).toBe("complete");
  expect(visible.filter((order) => order.status !== "complete")).toEqual([]);
  // A keyed order exists exactly once, and its retries after a kill answered that very order.
  for (const i of keyed) {
    const matching = orders.filter((order) => order.external_id === `KEYED-${i}`);
    expect(matching.map((order) => order.order_id)).toEqual([accepted.get(i)]);
  }

  // Every book was accepted once, as one batch that completed, with one result per row in row order: the bad rows
  // rejected with their reasons, every other row complete.
  expect([...acceptedBatches.keys()]).toEqual(expect.arrayContaining(books));
  for (const book of books) {
    const batchId = acceptedBatches.get(book);
    expect(batches.get(book), book.name).toMatchObject({
      batch_id: batchId,
      status: "complete",
      rows: book.rows,
      accepted: book.rows - book.rejected.size,
      rejected: book.rejected.size,
      complete: book.rows - book.rejected.size,
      failed: 0,
      processing: 0,
    });
    const lines = results.get(book) ?? [];
    expect(
      lines.map((line) => line.row),
      book.name,
    ).toEqual(Array.from({ length: book.rows }, (_, k) => k + 1));
    const expected = lines.map((line) => {
      const reason = book.rejected.get(line.row);
      return reason
        ? { row: line.row, status: "rejected", reason }
        : { row: line.row, status: "complete", reason: null };
    });
    expect(
      lines.map(({ row, status, reason }) => ({ row, status, reason })),
      book.name,
    ).toEqual(expected);
  }

  // An intake a kill cut off stays out of sight: no batch listed but the accepted ones, none of its orders listed.
  expect(listedBatches.data.map((batch) => batch.batch_id).sort()).toEqual([...acceptedBatches.values()].sort());
  expect(hidden.filter((order) => listedOrders.has(order.order_id))).toEqual([]);
  expect(listedOrders.size).toBe(visible.length);

  // Nothing is left to do, and nothing was given up on.
  expect(jobs.filter((job) => job.status !== "done")).toEqual([]);
  expect(events.filter((event) => event.status !== "delivered")).toEqual([]);

  // Every order with a callback, and every batch, was delivered at least once, under one event whose copies are
  // identical.
  const delivered = hits.filter((hit) => hit.status === 204);
  const deliveredOnce = (id: string) => {
    const copies = hits.filter((hit) => hit.body.includes(`"${id}"`));
    expect(
      delivered.some((hit) => hit.body.includes(`"${id}"`)),
      id,
    ).toBe(true);
    expect(new Set(copies.map((hit) => hit.webhookId)).size, id).toBe(1);
    expect(new Set(copies.map((hit) => hit.body)).size, id).toBe(1);
    return JSON.parse(copies[0]?.body ?? "{}") as { type: string; data: Record<string, unknown> };
  };
  for (const order of singles) expect(order.callback_url).not.toBeNull();
  const withCallback = visible.filter((order) => order.callback_url !== null);
  for (const order of withCallback) deliveredOnce(order.order_id);
  for (const book of books) {
    const ownCallbacks = (results.get(book) ?? []).filter((line) => book.ownCallbackRows.includes(line.row));
    expect(ownCallbacks.map((line) => line.row)).toEqual(book.ownCallbackRows);
    for (const line of ownCallbacks) expect(deliveredOnce(line.order_id ?? "").type).toBe("order.complete");
    const event = deliveredOnce(acceptedBatches.get(book) ?? "");
    expect(event).toMatchObject({
      type: "order-batch.complete",
      data: {
        rows: book.rows,
        accepted: book.rows - book.rejected.size,
        rejected: book.rejected.size,
        complete: book.rows - book.rejected.size,
        failed: 0,
      },
    });
  }
  const bodies = new Map(events.map((event) => [event.event_id, event.body]));
  for (const hit of hits) expect(hit.body).toBe(bodies.get(hit.webhookId));
  expect(new Set(delivered.map((hit) => hit.webhookId)).size).toBe(events.length);
  const ownCallbacks = books.reduce((sum, book) => sum + book.ownCallbackRows.length, 0);
  expect(withCallback.length).toBe(singles.length + ownCallbacks);
  expect(events.length).toBe(withCallback.length + books.length);
}, 270_000); // placing (PLACE_MS), the books' last 10 s, settling (SETTLE_MS) and 30 s for the checks
