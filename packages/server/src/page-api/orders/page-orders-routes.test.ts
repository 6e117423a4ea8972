import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import { addressLine } from "../../geo/store/address-line.js";
import type { JobRunner } from "../../jobs/index.js";
import { addCustomField } from "../../tenancy/custom-fields.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { createJobRunner } from "../../workers/background-work.js";
import { iframeTokenFor, type PageCall, pageCaller } from "../test-page-api.js";

describe("POST /embed/api/orders and GET /embed/api/orders/{order_id}", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let page: PageCall;
  let otherToken: string;
  let runner: JobRunner;
  let address: string;

  beforeAll(async () => {
    test = await createTestApp();
    await importDemoNeighbourhood(test.services.database);
    tenant = await createTenant(test.services);
    page = pageCaller(test, await iframeTokenFor(test, tenant.orgId));
    otherToken = await iframeTokenFor(test, (await createTenant(test.services, "Other Mutual")).orgId);
    runner = createJobRunner(test.services);
    const row = await test.services.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .executeTakeFirstOrThrow();
    address = addressLine(row);
  });
  afterAll(() => test.close());

  it("places an order that completes, its property readable through the page API and the data API alike", async () => {
    let nudged = 0;
    test.services.nudgeWorkers = () => {
      nudged += 1;
    };
    const placed = await page("POST", "/embed/api/orders", {
      payload: { address, external_id: "POL-PAGE-1", insured_name: "Jane Doe" },
    });
    expect(placed.statusCode).toBe(202);
    const { order_id, property_id, status } = placed.json();
    expect(status).toBe("processing");
    expect(placed.headers.location).toBe(`/embed/api/orders/${order_id}`);
    expect(nudged).toBe(1);

    await runner.drain();

    const order = await page("GET", `/embed/api/orders/${order_id}`);
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({ order_id, property_id, status: "complete", external_id: "POL-PAGE-1" });

    const record = await page("GET", `/embed/api/properties/${property_id}`);
    expect(record.statusCode).toBe(200);
    const body = record.json();
    expect(body.address).toBe(address);
    expect(body.parcel.source_id).toMatch(/^DEMO-/);
    expect(body.buildings.length).toBeGreaterThan(0);
    expect(body.policy).toMatchObject({ external_id: "POL-PAGE-1", insured_name: "Jane Doe" });
    expect(body.orders.map((o: { order_id: string }) => o.order_id)).toEqual([order_id]);

    const bearer = { authorization: `Bearer ${await accessTokenFor(test, tenant)}` };
    const viaDataApi = await test.app.inject({ url: `/v1/properties/${property_id}`, headers: bearer });
    expect(viaDataApi.json()).toEqual(body);
    const orderViaDataApi = await test.app.inject({ url: `/v1/orders/${order_id}`, headers: bearer });
    expect(orderViaDataApi.json()).toEqual(order.json());
  });

  it("replays an Idempotency-Key with the same body and refuses it with another, as the data API does", async () => {
    const body = { address, external_id: "POL-PAGE-IDEM" };
    const first = await page("POST", "/embed/api/orders", { payload: body, headers: { "idempotency-key": "page-1" } });
    const again = await page("POST", "/embed/api/orders", { payload: body, headers: { "idempotency-key": "page-1" } });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    expect(again.headers["idempotent-replayed"]).toBe("true");
    const changed = await page("POST", "/embed/api/orders", {
      payload: { ...body, external_id: "POL-PAGE-OTHER" },
      headers: { "idempotency-key": "page-1" },
    });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().code).toBe("idempotency_key_reused");
    const malformed = await page("POST", "/embed/api/orders", {
      payload: body,
      headers: { "idempotency-key": "with space" },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe("invalid_idempotency_key");
  });

  it("checks an order exactly as the data API does, writing nothing when it refuses", async () => {
    await addCustomField(test.services.db, tenant.orgId, {
      key: "agent_code",
      label: "Agent code",
      type: "text",
      required: true,
    });
    const orders = async () =>
      Number(
        (
          await test.services.db
            .selectFrom("orders")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await orders();
    const cases: Array<[unknown, number, string]> = [
      [{ custom_fields: { agent_code: "A-7" } }, 422, "address_or_location_required"],
      [{ address, custom_fields: {} }, 422, "invalid_custom_fields"],
      [
        { address, callback_url: "https://elsewhere.example.com/hook", custom_fields: { agent_code: "A-7" } },
        422,
        "callback_url_not_registered",
      ],
      [{ address, colour: "red" }, 400, "invalid_request"],
    ];
    for (const [payload, status, code] of cases) {
      const response = await page("POST", "/embed/api/orders", { payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().code).toBe(code);
    }
    expect(await orders()).toBe(before);
    const accepted = await page("POST", "/embed/api/orders", {
      payload: { address, custom_fields: { agent_code: "A-7" } },
    });
    expect(accepted.statusCode).toBe(202);
  });

  it("answers 404 for another organization's order and property, and for no order at all", async () => {
    const placed = (
      await page("POST", "/embed/api/orders", { payload: { address, custom_fields: { agent_code: "B" } } })
    ).json();
    const order = await page("GET", `/embed/api/orders/${placed.order_id}`, { token: otherToken });
    expect(order.statusCode).toBe(404);
    expect(order.json().code).toBe("order_not_found");
    const property = await page("GET", `/embed/api/properties/${placed.property_id}`, { token: otherToken });
    expect(property.statusCode).toBe(404);
    expect(property.json().code).toBe("property_not_found");
    expect((await page("GET", "/embed/api/orders/ord_nothing")).json().code).toBe("order_not_found");
  });

  it("needs an iframe session: a data API token is refused", async () => {
    const response = await page("POST", "/embed/api/orders", {
      payload: { address },
      token: await accessTokenFor(test, tenant),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("session_ended");
    expect((await page("GET", "/embed/api/orders/ord_x", { token: null })).statusCode).toBe(401);
  });
});
