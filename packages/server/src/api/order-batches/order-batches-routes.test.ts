import type { OrderBatch, OrderBatchAccepted, OrderBatchList, OrderBatchResult, Problem } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ABANDONED_INTAKE_MS } from "../../batches/intake-batch.js";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import { addressLine } from "../../geo/store/address-line.js";
import type { JobRunner } from "../../jobs/index.js";
import { writeOrders } from "../../orders/write-orders.js";
import { addCallbackPrefix } from "../../tenancy/callback-prefixes.js";
import { addCustomField } from "../../tenancy/custom-fields.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import {
  type ReceivedHook,
  startWebhookReceiver,
  verifiedHook,
  type WebhookReceiver,
} from "../../test/webhook-receiver.js";
import { createJobRunner } from "../../workers/background-work.js";

/** The test's limit on rows, so that going past it needs no 100,001-row file. */
const ROW_LIMIT = 12;

describe("order batches over real HTTP, on the generated neighbourhood", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let otherToken: string;
  let runner: JobRunner;
  let receiver: WebhookReceiver;
  let hookUrl: string;
  let received: ReceivedHook[] = [];
  let addresses: string[];

  beforeAll(async () => {
    test = await createTestApp(
      { LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1", LOTLINE_BATCH_ROWS_MAX: String(ROW_LIMIT) },
      { listen: true },
    );
    await importDemoNeighbourhood(test.services.database);
    tenant = await createTenant(test.services);
    other = await createTenant(test.services, "Other Mutual");
    token = await accessTokenFor(test, tenant);
    otherToken = await accessTokenFor(test, other);
    await addCustomField(test.services.db, tenant.orgId, {
      key: "agent",
      label: "Agent",
      type: "text",
      required: false,
    });
    await addCustomField(test.services.db, tenant.orgId, {
      key: "floors",
      label: "Floors",
      type: "number",
      required: false,
    });
    runner = createJobRunner(test.services);
    receiver = await startWebhookReceiver();
    hookUrl = receiver.url;
    received = receiver.received;
    await addCallbackPrefix(test.services.db, tenant.orgId, hookUrl);
    const rows = await test.services.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .limit(4)
      .execute();
    addresses = rows.map((row) => addressLine(row).split(",")[0] ?? "");
  });
  afterAll(async () => {
    await receiver?.close();
    await test.close();
  });

  const call = (path: string, init: RequestInit & { as?: string } = {}) =>
    fetch(`${test.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${init.as ?? token}`, ...(init.headers as Record<string, string>) },
    });
  const postCsv = (csv: string, query = "", headers: Record<string, string> = {}) =>
    call(`/v1/order-batches${query}`, {
      method: "POST",
      body: csv,
      headers: { "content-type": "text/csv", ...headers },
    });
  const postJson = (body: unknown, headers: Record<string, string> = {}) =>
    call("/v1/order-batches", {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    });
  const verified = (delivery: ReceivedHook) =>
    verifiedHook<{ type: string; data: Record<string, unknown> }>(tenant.webhookSecret, delivery);
  const accepted = async (response: Response) => (await response.json()) as OrderBatchAccepted;
  const problem = async (response: Response) => (await response.json()) as Problem;
  const batch = async (id: string) => (await (await call(`/v1/order-batches/${id}`)).json()) as OrderBatch;
  const list = async (query = "?limit=100", as = token) =>
    (await (await call(`/v1/order-batches${query}`, { as })).json()) as OrderBatchList;
  const orderCount = async () =>
    ((await (await call("/v1/orders?limit=100")).json()) as { data: unknown[] }).data.length;
  const resultLines = async (response: Response) =>
    (await response.text())
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as OrderBatchResult);

  it("takes a CSV book: good rows become orders, every bad row is rejected with its row, field and reason", async () => {
    const [a, b, c] = addresses;
    const csv = [
      "address,external_id,renewal_date,premium_amount,product_matrix_id,callback_url,custom.agent,custom.floors,policy_system_code",
      `${a},BK-1,2027-01-31,1200.50,,,A-7,2,X1`,
      ",BK-2,,,,,,,X2",
      `${b},BK-3,2027-02-30,,,,,,X3`,
      `${b},BK-4,,-5,,,,,X4`,
      `${b},BK-5,,lots,,,,,X5`,
      `${b},BK-6,,,mx_nope,,,,X6`,
      `${b},BK-7,,,,,,many,X7`,
      `${b},BK-8,,,,http://elsewhere.example/hook,,,X8`,
      `"${c}",BK-9,,,,${hookUrl}row-9,,,X9`,
    ].join("\r\n");
    const response = await postCsv(
      csv,
      `?name=${encodeURIComponent("Renewals 2027")}&callback_url=${encodeURIComponent(`${hookUrl}batch`)}`,
    );
    expect(response.status).toBe(202);
    const placed = await accepted(response);
    expect(response.headers.get("location")).toBe(`/v1/order-batches/${placed.batch_id}`);
    expect(placed).toMatchObject({
      name: "Renewals 2027",
      status: "processing",
      rows: 9,
      accepted: 2,
      rejected: 7,
      ignored_columns: ["policy_system_code"],
    });
    expect(placed.rejections).toEqual([
      { row: 2, field: "address", reason: "address_or_location_required" },
      { row: 3, field: "renewal_date", reason: "invalid_renewal_date" },
      { row: 4, field: "premium_amount", reason: "out_of_range" },
      { row: 5, field: "premium_amount", reason: "not_a_number" },
      { row: 6, field: "product_matrix_id", reason: "product_matrix_not_found" },
      { row: 7, field: "custom_fields.floors", reason: "invalid_custom_fields" },
      { row: 8, field: "callback_url", reason: "callback_url_not_registered" },
    ]);

    const before = await batch(placed.batch_id);
    expect(before).toMatchObject({
      status: "processing",
      rows: 9,
      accepted: 2,
      rejected: 7,
      processing: 2,
      complete: 0,
    });
    expect(before.completed_at).toBeNull();

    await runner.drain();

    const after = await batch(placed.batch_id);
    expect(after).toMatchObject({ status: "complete", processing: 0, complete: 2, failed: 0 });
    expect(after.completed_at).not.toBeNull();

    const batchHook = received.find((hit) => hit.body.includes(placed.batch_id));
    expect(batchHook?.headers["content-type"]).toContain("application/json");
    const event = verified(batchHook as ReceivedHook);
    expect(event.type).toBe("order-batch.complete");
    expect(event.data).toMatchObject({
      batch_id: placed.batch_id,
      rows: 9,
      accepted: 2,
      rejected: 7,
      complete: 2,
      failed: 0,
    });
    expect(received.filter((hit) => hit.body.includes(placed.batch_id))).toHaveLength(1);
    const rowHook = received.find((hit) => hit.body.includes("BK-9"));
    expect(verified(rowHook as ReceivedHook).type).toBe("order.complete");

    const ndjson = await call(`/v1/order-batches/${placed.batch_id}/results`);
    expect(ndjson.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = await resultLines(ndjson);
    const first = lines[0] as OrderBatchResult;
    expect(lines.map((line) => line.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(lines.map((line) => line.status)).toEqual([
      "complete",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "complete",
    ]);
    expect(lines[1] as OrderBatchResult).toMatchObject({
      reason: "address_or_location_required",
      order_id: null,
      parcel_source_id: null,
    });
    expect(first).toMatchObject({ external_id: "BK-1", reason: null });
    expect(first.address?.startsWith((a ?? "").toUpperCase())).toBe(true);
    expect(first.parcel_source_id).toMatch(/^DEMO-/);
    expect(first.building_count).toBeGreaterThan(0);
    expect(first.parcel_area_m2).toBeGreaterThan(50);
    expect(first.footprint_area_m2).toBeGreaterThan(10);
    expect(first.fire_station_distance_m).toBeGreaterThan(0);
    expect(first.hydrant_distance_m).toBeGreaterThan(0);
    const record = (await (await call(`/v1/properties/${first.property_id}`)).json()) as {
      parcel: { source_id: string };
      policy: unknown;
    };
    expect(record.parcel.source_id).toBe(first.parcel_source_id);
    expect(record.policy).toMatchObject({
      external_id: "BK-1",
      premium_amount: 1200.5,
      custom_fields: { agent: "A-7", floors: 2 },
    });

    const csvResults = await call(`/v1/order-batches/${placed.batch_id}/results`, { headers: { accept: "text/csv" } });
    expect(csvResults.headers.get("content-type")).toContain("text/csv");
    const csvLines = (await csvResults.text()).trimEnd().split("\r\n");
    expect(csvLines[0]).toBe(
      "row,status,reason,order_id,property_id,external_id,address,parcel_source_id,building_count,parcel_area_m2," +
        "footprint_area_m2,flood_zone,fire_station_distance_m,hydrant_distance_m",
    );
    expect(csvLines).toHaveLength(10);
    expect(csvLines.slice(1).map((line) => Number(line.split(",")[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(csvLines[2]).toBe("2,rejected,address_or_location_required,,,,,,,,,,,");
    expect(csvLines[1]).toContain(`,${first.order_id},`);
  });

  it("takes a JSON batch: each order is a POST /v1/orders body, a bad one rejected alone", async () => {
    const response = await postJson({
      name: "JSON book",
      orders: [
        { address: addresses[3], external_id: "JS-1" },
        { address: addresses[3], premium_amount: "12" },
        { location: { lat: 0.5, lon: 0.5 }, external_id: "JS-3" },
        { address: addresses[3], surprise: true },
        { address: addresses[3], custom_fields: { agent: 7 } },
      ],
    });
    expect(response.status).toBe(202);
    const placed = await accepted(response);
    expect(placed).toMatchObject({ name: "JSON book", rows: 5, accepted: 2, rejected: 3, ignored_columns: [] });
    expect(placed.rejections).toEqual([
      { row: 2, field: "premium_amount", reason: "invalid_type" },
      { row: 4, field: "surprise", reason: "unknown_field" },
      { row: 5, field: "custom_fields.agent", reason: "invalid_custom_fields" },
    ]);
    await runner.drain();
    const results = await resultLines(await call(`/v1/order-batches/${placed.batch_id}/results`));
    expect(results.map((line) => [line.row, line.status])).toEqual([
      [1, "complete"],
      [2, "rejected"],
      [3, "failed"],
      [4, "rejected"],
      [5, "rejected"],
    ]);
    expect(results[2]?.reason).toBe("no_parcel_at_location");
    expect(await batch(placed.batch_id)).toMatchObject({ status: "complete", complete: 1, failed: 1, processing: 0 });
  });

  it("completes a batch with nothing to process at once, and tells its callback", async () => {
    const response = await postJson({ callback_url: `${hookUrl}empty`, orders: [{ external_id: "NONE-1" }] });
    const placed = await accepted(response);
    expect(placed).toMatchObject({ status: "complete", rows: 1, accepted: 0, rejected: 1 });
    expect(await batch(placed.batch_id)).toMatchObject({ status: "complete", processing: 0, complete: 0 });
    await runner.drain();
    const hook = received.find((hit) => hit.body.includes(placed.batch_id));
    expect(verified(hook as ReceivedHook)).toMatchObject({
      type: "order-batch.complete",
      data: { accepted: 0, rejected: 1 },
    });
  });

  it("refuses a CSV with neither an address nor lat and lon columns whole, and keeps nothing", async () => {
    const listed = (await list()).data.length;
    const response = await postCsv("external_id,premium_amount\r\nX-1,12\r\n");
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect((await problem(response)).code).toBe("batch_location_columns_missing");
    const unreadable = await postCsv(`address\r\n"${addresses[0]}\r\nstray"quote,\r\n`);
    expect(unreadable.status).toBe(422);
    expect((await problem(unreadable)).code).toBe("invalid_csv");
    expect((await list()).data).toHaveLength(listed);
  });

  it("hides the orders of an intake cut off by a crash, and the next batch removes it whole", async () => {
    const before = await orderCount();
    const cutOff = "bat_cutoffintake0001";
    const matrix = await test.services.db
      .selectFrom("product_matrices")
      .select("product_matrix_id")
      .where("org_id", "=", tenant.orgId)
      .executeTakeFirstOrThrow();
    await test.services.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("order_batches")
        .values({
          batch_id: cutOff,
          org_id: tenant.orgId,
          name: null,
          callback_url: null,
          status: "intake",
          created_at: Date.now() - ABANDONED_INTAKE_MS - 1,
        })
        .execute();
      await writeOrders(
        trx,
        test.services.database.dialect,
        tenant.orgId,
        [{ request: { address: addresses[0] ?? "" }, productMatrixId: matrix.product_matrix_id }],
        { batchId: cutOff },
      );
    });
    expect(await orderCount()).toBe(before);
    expect((await call(`/v1/order-batches/${cutOff}`)).status).toBe(404);

    expect((await postJson({ orders: [{ address: addresses[1] }] })).status).toBe(202);
    const left = await test.services.db
      .selectFrom("orders")
      .select("order_id")
      .where("batch_id", "=", cutOff)
      .execute();
    expect(left).toEqual([]);
    expect(
      await test.services.db.selectFrom("order_batches").select("batch_id").where("batch_id", "=", cutOff).execute(),
    ).toEqual([]);
  });

  it("reads lat and lon columns as a location", async () => {
    const response = await postCsv("lat,lon,external_id\r\n0.5,0.5,LL-1\r\n0.5,,LL-2\r\nnorth,0.5,LL-3\r\n");
    const placed = await accepted(response);
    expect(placed).toMatchObject({ rows: 3, accepted: 1, rejected: 2 });
    expect(placed.rejections).toEqual([
      { row: 2, field: "lon", reason: "location_incomplete" },
      { row: 3, field: "lat", reason: "not_a_number" },
    ]);
  });

  it("refuses a batch callback under no registered prefix with 422 for the whole request", async () => {
    const response = await postCsv(
      `address\r\n${addresses[0]}\r\n`,
      `?callback_url=${encodeURIComponent("https://elsewhere.example/hook")}`,
    );
    expect(response.status).toBe(422);
    expect((await problem(response)).code).toBe("callback_url_not_registered");
  });

  it("refuses one row past the limit with 413 naming it, and keeps nothing; the default limit is 100,000", async () => {
    const listed = (await list()).data.length;
    const orders = await orderCount();
    const rows = Array.from({ length: ROW_LIMIT + 1 }, (_, k) => `${addresses[0]},LIM-${k}`);
    const tooMany = await postCsv(["address,external_id", ...rows].join("\r\n"));
    expect(tooMany.status).toBe(413);
    const refusal = await problem(tooMany);
    expect(refusal.code).toBe("batch_too_large");
    expect(refusal.detail).toContain(String(ROW_LIMIT));
    const tooManyJson = await postJson({
      orders: rows.map((_, k) => ({ address: addresses[0], external_id: `LIM-${k}` })),
    });
    expect(tooManyJson.status).toBe(413);
    expect((await list()).data).toHaveLength(listed);
    expect(await orderCount()).toBe(orders);

    const atLimit = await postCsv(["address,external_id", ...rows.slice(1)].join("\r\n"));
    expect(atLimit.status).toBe(202);
    expect((await accepted(atLimit)).rows).toBe(ROW_LIMIT);

    const defaults = await createTestApp();
    try {
      expect(defaults.config.batchRowsMax).toBe(100_000);
    } finally {
      await defaults.close();
    }
  });

  it("replays an Idempotency-Key with the same body as the same batch, refuses it with another", async () => {
    const csv = `address,external_id\r\n${addresses[1]},IDEM-1\r\n`;
    const first = await postCsv(csv, "", { "idempotency-key": "book-7" });
    expect(first.status).toBe(202);
    const firstBatch = await accepted(first);
    const again = await postCsv(csv, "", { "idempotency-key": "book-7" });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await accepted(again)).toEqual(firstBatch);
    const changed = await postCsv(`${csv}${addresses[2]},IDEM-2\r\n`, "", { "idempotency-key": "book-7" });
    expect(changed.status).toBe(422);
    expect((await problem(changed)).code).toBe("idempotency_key_reused");

    const body = { orders: [{ address: addresses[1], external_id: "IDEM-J" }] };
    const json = await accepted(await postJson(body, { "idempotency-key": "book-8" }));
    const jsonAgain = await postJson(body, { "idempotency-key": "book-8" });
    expect(jsonAgain.headers.get("idempotent-replayed")).toBe("true");
    expect((await accepted(jsonAgain)).batch_id).toBe(json.batch_id);

    const batches = (await list()).data;
    expect(batches.filter((listed) => listed.batch_id === firstBatch.batch_id)).toHaveLength(1);
  });

  it("lists the organization's batches newest first in cursor pages; another organization's batch is a 404", async () => {
    const first = await list("?limit=2");
    expect(first.data).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    const seen = [...first.data, ...second.data].map((listed) => listed.created_at);
    expect([...seen].sort().reverse()).toEqual(seen);
    const id = first.data[0]?.batch_id;
    expect((await call(`/v1/order-batches/${id}`, { as: otherToken })).status).toBe(404);
    expect((await call(`/v1/order-batches/${id}/results`, { as: otherToken })).status).toBe(404);
    expect((await list("", otherToken)).data).toEqual([]);
  });
});
