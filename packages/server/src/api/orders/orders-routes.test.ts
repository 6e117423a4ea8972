import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import { addressLine } from "../../geo/store/address-line.js";
import type { JobRunner } from "../../jobs/index.js";
import { addCallbackPrefix } from "../../tenancy/callback-prefixes.js";
import { addCustomField } from "../../tenancy/custom-fields.js";
import { createProductMatrix } from "../../tenancy/product-matrices.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import {
  type ReceivedHook,
  startWebhookReceiver,
  verifiedHook,
  type WebhookReceiver,
} from "../../test/webhook-receiver.js";
import { createJobRunner } from "../../workers/background-work.js";

describe("orders, end to end on the generated neighbourhood", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let runner: JobRunner;
  let receiver: WebhookReceiver;
  let hookUrl: string;
  let received: ReceivedHook[] = [];
  let address: string;

  beforeAll(async () => {
    test = await createTestApp({ LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" });
    await importDemoNeighbourhood(test.services.database);
    tenant = await createTenant(test.services);
    other = await createTenant(test.services, "Other Mutual");
    token = await accessTokenFor(test, tenant);
    await addCustomField(test.services.db, tenant.orgId, {
      key: "agent",
      label: "Agent",
      type: "text",
      required: false,
    });
    runner = createJobRunner(test.services);
    receiver = await startWebhookReceiver();
    hookUrl = receiver.url;
    received = receiver.received;
    await addCallbackPrefix(test.services.db, tenant.orgId, hookUrl);
    const row = await test.services.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .executeTakeFirstOrThrow();
    address = addressLine(row).split(",")[0] ?? "";
  });
  afterAll(async () => {
    await receiver?.close();
    await test.close();
  });

  const api = (
    method: "GET" | "POST",
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
    as = token,
  ) =>
    test.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${as}`, ...headers },
      ...(payload ? { payload } : {}),
    });

  it("places an order, processes it, and delivers a signed order.complete webhook", async () => {
    const placed = await api("POST", "/v1/orders", {
      address,
      external_id: "POL-100",
      insured_name: "Jane Doe",
      renewal_date: "2027-01-31",
      premium_amount: 1234.5,
      custom_fields: { agent: "A-7" },
      callback_url: `${hookUrl}orders`,
    });
    expect(placed.statusCode).toBe(202);
    const { order_id, property_id, status } = placed.json();
    expect(status).toBe("processing");
    expect(placed.headers.location).toBe(`/v1/orders/${order_id}`);

    await runner.drain();

    const order = (await api("GET", `/v1/orders/${order_id}`)).json();
    expect(order).toMatchObject({ order_id, property_id, status: "complete", external_id: "POL-100" });
    expect(order.completed_at).toBeDefined();

    const record = (await api("GET", `/v1/properties/${property_id}`)).json();
    expect(record.address.startsWith(address.toUpperCase())).toBe(true);
    expect(record.parcel.source_id).toMatch(/^DEMO-/);
    expect(record.parcel.area_m2).toBeGreaterThan(50);
    expect(record.buildings.length).toBeGreaterThan(0);
    expect(Object.keys(record.data).sort()).toEqual(["exposure", "location", "parcel", "structures", "third_party"]);
    expect(record.policy).toEqual({
      external_id: "POL-100",
      secondary_external_id: null,
      insured_name: "Jane Doe",
      renewal_date: "2027-01-31",
      premium_amount: 1234.5,
      custom_fields: { agent: "A-7" },
    });
    expect(record.orders.map((o: { order_id: string }) => o.order_id)).toEqual([order_id]);

    const delivery = received.find((hit) => hit.body.includes(order_id));
    expect(delivery).toBeDefined();
    const verified = verifiedHook<{ type: string; data: { order_id: string; status: string } }>(
      tenant.webhookSecret,
      delivery,
    );
    expect(verified.type).toBe("order.complete");
    expect(verified.data).toMatchObject({ order_id, status: "complete", property_id, external_id: "POL-100" });
  });

  it("fails an order whose address matches nothing, with a documented reason", async () => {
    const placed = (await api("POST", "/v1/orders", { address: "999 Nowhere Rd, Springfield, ZZ" })).json();
    await runner.drain();
    const order = (await api("GET", `/v1/orders/${placed.order_id}`)).json();
    expect(order).toMatchObject({ status: "failed", reason: "address_not_found" });
  });

  it("validates at the edge with problem+json and writes nothing", async () => {
    const before = (await api("GET", "/v1/orders?limit=100")).json().data.length;
    const cases: Array<[unknown, number, string]> = [
      [{}, 422, "address_or_location_required"],
      [{ address: "1 Main St", renewal_date: "2027-02-30" }, 400, "invalid_request"],
      [{ address: "1 Main St", renewal_date: "31/01/2027" }, 400, "invalid_request"],
      [{ address: "1 Main St", premium_amount: -1 }, 400, "invalid_request"],
      [{ address: "1 Main St", colour: "red" }, 400, "invalid_request"],
      [{ location: { lat: 91, lon: 0 } }, 400, "invalid_request"],
      [
        { address: "1 Main St", callback_url: "https://elsewhere.example.com/hook" },
        422,
        "callback_url_not_registered",
      ],
      [{ address: "1 Main St", product_matrix_id: "pm_nope" }, 422, "product_matrix_not_found"],
    ];
    for (const [payload, status, code] of cases) {
      const response = await api("POST", "/v1/orders", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json().code).toBe(code);
    }
    expect((await api("GET", "/v1/orders?limit=100")).json().data.length).toBe(before);
  });

  it("replays an Idempotency-Key with the same body, refuses it with another", async () => {
    const body = { address, external_id: "POL-IDEM" };
    const first = await api("POST", "/v1/orders", body, { "idempotency-key": "order-42" });
    const again = await api(
      "POST",
      "/v1/orders",
      { external_id: "POL-IDEM", address },
      { "idempotency-key": "order-42" },
    );
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    expect(again.headers["idempotent-replayed"]).toBe("true");
    const changed = await api(
      "POST",
      "/v1/orders",
      { address, external_id: "POL-OTHER" },
      { "idempotency-key": "order-42" },
    );
    expect(changed.statusCode).toBe(422);
    expect(changed.json().code).toBe("idempotency_key_reused");
    const theirs = await api(
      "POST",
      "/v1/orders",
      body,
      { "idempotency-key": "order-42" },
      await accessTokenFor(test, other),
    );
    expect(theirs.statusCode).toBe(202);
    expect(theirs.json().order_id).not.toBe(first.json().order_id);
  });

  it("reuses the property record of an external id and runs the chosen matrix only", async () => {
    const matrix = await createProductMatrix(test.services.db, tenant.orgId, "Parcel only", "parcel");
    const first = (await api("POST", "/v1/orders", { address, external_id: "POL-REUSE" })).json();
    const second = (
      await api("POST", "/v1/orders", {
        address,
        external_id: "POL-REUSE",
        product_matrix_id: matrix.product_matrix_id,
      })
    ).json();
    expect(second.property_id).toBe(first.property_id);
    await runner.drain();
    const record = (await api("GET", `/v1/properties/${second.property_id}`)).json();
    expect(Object.keys(record.data)).toEqual(["parcel"]);
    expect(record.orders).toHaveLength(2);
    const byExternalId = (await api("GET", "/v1/properties?external_id=POL-REUSE")).json();
    expect(byExternalId.data.map((p: { property_id: number }) => p.property_id)).toEqual([first.property_id]);
  });

  it("keeps the newer order's record when an older order of the same property finishes after it", async () => {
    const matrix = await createProductMatrix(test.services.db, tenant.orgId, "Location only", "location");
    const placed = [
      (await api("POST", "/v1/orders", { address, external_id: "POL-RACE" })).json(),
      (
        await api("POST", "/v1/orders", {
          address,
          external_id: "POL-RACE",
          product_matrix_id: matrix.product_matrix_id,
        })
      ).json(),
    ];
    // Newer by when it was placed, then by id (two orders may share a millisecond).
    const rows = await test.services.db
      .selectFrom("orders")
      .select(["order_id", "created_at", "product_matrix_id"])
      .where("order_id", "in", [placed[0].order_id, placed[1].order_id])
      .execute();
    const [older, newer] = rows.sort((a, b) => a.created_at - b.created_at || a.order_id.localeCompare(b.order_id));
    if (!older || !newer) throw new Error("both orders are stored");
    // The older order's job waits until the newer one has run.
    const olderJob = test.services.db
      .updateTable("jobs")
      .where("payload", "=", JSON.stringify({ order_id: older.order_id }));
    await olderJob.set({ run_at: Date.now() + 3_600_000 }).execute();
    await runner.drain();
    await olderJob.set({ run_at: Date.now() }).execute();
    await runner.drain();

    const record = (await api("GET", `/v1/properties/${placed[0].property_id}`)).json();
    const productsOf = (order: { product_matrix_id: string }) =>
      order.product_matrix_id === matrix.product_matrix_id
        ? ["location"]
        : ["exposure", "location", "parcel", "structures", "third_party"];
    expect(Object.keys(record.data).sort()).toEqual(productsOf(newer));
    expect(record.version).toBe(1);
    expect(record.orders.map((o: { status: string }) => o.status)).toEqual(["complete", "complete"]);
  });

  it("pages through orders with a cursor and filters by status", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { order_id: string }[]; next_cursor: string | null } = (
        await api("GET", `/v1/orders?limit=2${cursor ? `&cursor=${cursor}` : ""}`)
      ).json();
      seen.push(...page.data.map((o: { order_id: string }) => o.order_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const all = (await api("GET", "/v1/orders?limit=100")).json().data;
    expect(seen).toEqual(all.map((o: { order_id: string }) => o.order_id));
    const failed = (await api("GET", "/v1/orders?status=failed&limit=100")).json().data;
    expect(failed.every((o: { status: string }) => o.status === "failed")).toBe(true);
    expect((await api("GET", "/v1/orders?cursor=garbage")).statusCode).toBe(422);
  });

  it("answers 404 for another organization's order and property", async () => {
    const placed = (await api("POST", "/v1/orders", { address })).json();
    const theirs = await accessTokenFor(test, other);
    expect((await api("GET", `/v1/orders/${placed.order_id}`, undefined, {}, theirs)).statusCode).toBe(404);
    expect((await api("GET", `/v1/properties/${placed.property_id}`, undefined, {}, theirs)).statusCode).toBe(404);
  });

  it("logs every delivery attempt, readable through the API, and redelivers with the same webhook-id", async () => {
    const placed = (await api("POST", "/v1/orders", { address, callback_url: `${hookUrl}fail` })).json();
    await runner.runOnce(); // processes the order
    await runner.runOnce(); // the first delivery attempt, answered 500
    const listed = (await api("GET", "/v1/webhook-deliveries?limit=100")).json().data;
    const failing = listed.find(
      (d: { payload: { data: { order_id: string } } }) => d.payload.data.order_id === placed.order_id,
    );
    expect(failing).toMatchObject({ type: "order.complete", status: "pending", url: `${hookUrl}fail` });
    expect(failing.attempts[0]).toMatchObject({ status_code: 500, response_excerpt: "receiver is down" });

    const delivered = listed.find((d: { status: string }) => d.status === "delivered");
    expect(delivered.attempts.at(-1).status_code).toBe(204);
    const before = received.filter((hit) => hit.headers["webhook-id"] === delivered.webhook_id).length;
    const again = await api("POST", `/v1/webhook-deliveries/${delivered.webhook_id}/redeliver`);
    expect(again.statusCode).toBe(202);
    await runner.runOnce();
    const copies = received.filter((hit) => hit.headers["webhook-id"] === delivered.webhook_id);
    expect(copies.length).toBe(before + 1);
    expect(new Set(copies.map((hit) => hit.body)).size).toBe(1);

    const theirs = await accessTokenFor(test, other);
    expect(
      (await api("POST", `/v1/webhook-deliveries/${delivered.webhook_id}/redeliver`, undefined, {}, theirs)).statusCode,
    ).toBe(404);
    expect((await api("GET", "/v1/webhook-deliveries", undefined, {}, theirs)).json().data).toEqual([]);
  });
});
