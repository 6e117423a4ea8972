import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, createApiClient } from "./api/api-client.js";
import type { CreateOrderBatchInput, OrderBatch, OrderBatchResult, PlacedOrderBatch } from "./api/api-shapes.js";
import { ApiError } from "./errors/api-error.js";
import { type LoopbackServer, startLoopbackServer } from "./test-loopback.js";
import { startTestServer, type TestServer } from "./test-server.js";
import { until } from "./test-until.js";
import { createTokenProvider } from "./tokens/token-provider.js";
import { verifyWebhook } from "./webhooks/verify-webhook.js";

/** The service's row limit in this test, so that going past it needs no 100,001-row book. */
const ROW_LIMIT = 500;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

/** A CSV field, quoted: demo addresses hold commas. */
const quoted = (value: string) => `"${value.replaceAll('"', '""')}"`;

describe("order batches through the SDK against the real server", () => {
  let server: TestServer;
  let receiver: LoopbackServer;
  const deliveries: Delivery[] = [];
  let api: ApiClient;
  let addresses: string[];

  beforeAll(async () => {
    server = await startTestServer({
      listen: true,
      demo: true,
      settings: { LOTLINE_BATCH_ROWS_MAX: String(ROW_LIMIT) },
    });
    receiver = await startLoopbackServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(204).end();
      });
    });
    await server.addCallbackPrefix(`${receiver.url}/`);
    const tokens = createTokenProvider({
      tokenUrl: server.url,
      clientId: server.tenant.clientId,
      clientSecret: server.tenant.clientSecret,
      audience: server.audience,
    });
    api = createApiClient({ baseUrl: server.url, tokens });
    addresses = await Promise.all([2, 3, 4, 5].map((index) => server.demoAddress(index)));
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const completed = (placed: PlacedOrderBatch) =>
    until<OrderBatch>(`batch ${placed.batch_id} to complete`, async () => {
      const batch = await api.getOrderBatch(placed.batch_id);
      return batch.status === "complete" ? batch : undefined;
    });

  it("places a JSON batch, rejects its bad row alone, reads every row's result in row order and verifies the webhook", async () => {
    const [first, second] = addresses as [string, string];
    const placed = await api.createOrderBatch({
      name: "SDK JSON book",
      callback_url: `${receiver.url}/batches`,
      orders: [
        { address: first, external_id: "BJ-1" },
        { external_id: "BJ-2" },
        { location: { lat: 0.5, lon: 0.5 }, external_id: "BJ-3" },
        { address: second, external_id: "BJ-4" },
      ],
    });
    expect(placed).toMatchObject({ name: "SDK JSON book", status: "processing", rows: 4, accepted: 3, rejected: 1 });
    expect(placed.rejections).toEqual([{ row: 2, field: "address", reason: "address_or_location_required" }]);

    const batch = await completed(placed);
    expect(batch).toMatchObject({ rows: 4, accepted: 3, rejected: 1, processing: 0, complete: 2, failed: 1 });
    expect(batch.completed_at).not.toBeNull();

    const results = await collect(api.orderBatchResults(placed.batch_id));
    expect(results.map((result) => [result.row, result.status])).toEqual([
      [1, "complete"],
      [2, "rejected"],
      [3, "failed"],
      [4, "complete"],
    ]);
    const [one, two, three] = results as [OrderBatchResult, OrderBatchResult, OrderBatchResult];
    expect(one).toMatchObject({ external_id: "BJ-1", reason: null });
    expect(one.order_id).toMatch(/\S/);
    expect(one.parcel_source_id).toMatch(/^DEMO-/);
    expect(one.building_count).toBeGreaterThan(0);
    expect((await api.getProperty(one.property_id ?? 0)).property_id).toBe(one.property_id);
    expect(two).toMatchObject({ reason: "address_or_location_required", order_id: null });
    expect(three.reason).toBe("no_parcel_at_location");

    const delivery = await until("the order-batch.complete webhook", async () =>
      deliveries.find((hit) => hit.body.includes(placed.batch_id)),
    );
    const event = verifyWebhook({
      secret: server.tenant.webhookSecret,
      headers: delivery.headers,
      body: delivery.body,
    });
    expect(event.type).toBe("order-batch.complete");
    if (event.type !== "order-batch.complete") throw new Error("narrowed above");
    expect(event.data).toEqual({
      batch_id: placed.batch_id,
      name: "SDK JSON book",
      status: "complete",
      rows: 4,
      accepted: 3,
      rejected: 1,
      complete: 2,
      failed: 1,
    });
    expect(deliveries.filter((hit) => hit.body.includes(placed.batch_id))).toHaveLength(1);
  });

  it("places a CSV book given as a string, a Node stream and a web stream, and lists the batches a page at a time", async () => {
    const [, , third, fourth] = addresses as [string, string, string, string];
    const csv = [
      "address,external_id,policy_system_code",
      `${quoted(third)},BC-1,X1`,
      `${quoted(fourth)},BC-2,X2`,
      ",BC-3,X3",
    ].join("\r\n");
    // Each book completes before the next is placed, so the list's newest-first order is theirs.
    const placeAndRead = async (input: CreateOrderBatchInput) => {
      const placed = await api.createOrderBatch(input);
      expect(placed).toMatchObject({ rows: 3, accepted: 2, rejected: 1, ignored_columns: ["policy_system_code"] });
      expect(placed.rejections).toEqual([{ row: 3, field: "address", reason: "address_or_location_required" }]);
      expect(await completed(placed)).toMatchObject({ complete: 2, failed: 0 });
      const results = await collect(api.orderBatchResults(placed.batch_id));
      expect(results.map((result) => [result.row, result.status, result.external_id])).toEqual([
        [1, "complete", "BC-1"],
        [2, "complete", "BC-2"],
        [3, "rejected", null],
      ]);
      return placed;
    };
    const fromString = await placeAndRead({ csv, name: "SDK CSV book" });
    expect(fromString.name).toBe("SDK CSV book");
    // Chunks cut mid-row, as a file read from disk arrives.
    const cuts = [0, 17, 40, 41, csv.length];
    const chunks = cuts.slice(1).map((end, index) => Buffer.from(csv.slice(cuts[index], end)));
    const fromNodeStream = await placeAndRead({ csv: Readable.from(chunks), name: "SDK CSV stream" });
    expect(fromNodeStream.name).toBe("SDK CSV stream");
    const fromWebStream = await placeAndRead({ csv: new Blob([csv]).stream() });
    expect(fromWebStream.name).toBeNull();

    const firstPage = await api.listOrderBatches({ limit: 2 });
    expect(firstPage.data.map((batch) => batch.batch_id)).toEqual([fromWebStream.batch_id, fromNodeStream.batch_id]);
    expect(firstPage.next_cursor).not.toBeNull();
    const nextPage = await api.listOrderBatches({ limit: 2, cursor: firstPage.next_cursor ?? undefined });
    expect(nextPage.data[0]?.batch_id).toBe(fromString.batch_id);
  });

  it("places a batch once for one Idempotency-Key", async () => {
    const orders = [{ external_id: "BI-1" }];
    const first = await api.createOrderBatch({ orders }, { idempotencyKey: "import-job-1" });
    const again = await api.createOrderBatch({ orders }, { idempotencyKey: "import-job-1" });
    expect(again.batch_id).toBe(first.batch_id);
  });

  it("streams the results of a batch of many rows in row order, and refuses one past the row limit with a 413", async () => {
    const orders = Array.from({ length: ROW_LIMIT }, (_, index) => ({ external_id: `BL-${index + 1}` }));
    const placed = await api.createOrderBatch({ orders });
    expect(placed).toMatchObject({ status: "complete", rows: ROW_LIMIT, rejected: ROW_LIMIT });
    const results = await collect(api.orderBatchResults(placed.batch_id));
    expect(results.map((result) => result.row)).toEqual(orders.map((_, index) => index + 1));
    expect(new Set(results.map((result) => result.status))).toEqual(new Set(["rejected"]));

    const tooMany = await api
      .createOrderBatch({ orders: [...orders, { external_id: "BL-over" }] })
      .catch((caught: unknown) => caught);
    expect(tooMany).toBeInstanceOf(ApiError);
    expect(tooMany).toMatchObject({ status: 413, code: "batch_too_large" });
  });

  it("answers an unknown batch with an ApiError 404, from getOrderBatch and from the results stream", async () => {
    const missing = await api.getOrderBatch("bat_unknown").catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404 });
    const results = await collect(api.orderBatchResults("bat_unknown")).catch((caught: unknown) => caught);
    expect(results).toBeInstanceOf(ApiError);
    expect(results).toMatchObject({ status: 404, code: (missing as ApiError).code });
  });
});
