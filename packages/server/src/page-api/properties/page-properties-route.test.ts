import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import { getPropertyRecord } from "../../orders/property-records.js";
import { addCustomField } from "../../tenancy/custom-fields.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { createJobRunner } from "../../workers/background-work.js";
import { demoLotWithBuildings, iframeTokenFor, type PageCall, pageCaller } from "../test-page-api.js";

describe("GET /embed/api/properties/{property_id} (and the data API's record, under the same schema)", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let page: PageCall;
  let bearer: Record<string, string>;
  let complete: number;
  let selectedOnly: number;

  beforeAll(async () => {
    test = await createTestApp();
    await importDemoNeighbourhood(test.services.database);
    tenant = await createTenant(test.services);
    await addCustomField(test.services.db, tenant.orgId, {
      key: "agent",
      label: "Agent",
      type: "text",
      required: false,
    });
    page = pageCaller(test, await iframeTokenFor(test, tenant.orgId));
    bearer = { authorization: `Bearer ${await accessTokenFor(test, tenant)}` };
    const lot = await demoLotWithBuildings(test, 2);
    const address = lot.addresses[0] ?? "";
    // A record with everything: every product, policy fields, two orders (one failed) and a footprint selection.
    const placed = await page("POST", "/embed/api/orders", {
      payload: {
        address,
        external_id: "POL-REC-1",
        secondary_external_id: "SEC-1",
        insured_name: "Jane Doe",
        renewal_date: "2027-01-31",
        premium_amount: 99.5,
        custom_fields: { agent: "A-7" },
      },
    });
    complete = placed.json().property_id;
    // In the ocean: no parcel there and no boundary drawn, so it fails.
    await page("POST", "/embed/api/orders", {
      payload: { location: { lat: 0, lon: -30 }, external_id: "POL-REC-1" },
    });
    await createJobRunner(test.services).drain();
    await page("POST", "/embed/api/footprints", {
      payload: {
        address,
        external_id: "POL-REC-1",
        parcel_id: lot.parcel.parcelId,
        buildings: lot.buildings.map((b, index) => ({
          building_id: b.buildingId,
          ...(index === 0 ? { role: "primary_dwelling" } : {}),
        })),
      },
    });
    const selection = await page("POST", "/embed/api/footprints", {
      payload: { address, parcel_id: lot.parcel.parcelId, buildings: [{ building_id: lot.buildings[0]?.buildingId }] },
    });
    selectedOnly = selection.json().property_id;
  });
  afterAll(() => test.close());

  /** The record as the domain builds it, in JSON: what a response carried before it had a schema. */
  const unserialized = async (propertyId: number) =>
    JSON.parse(JSON.stringify(await getPropertyRecord(test.services.db, tenant.orgId, propertyId)));

  it("carries every field of the record through the response schema, on both APIs", async () => {
    for (const propertyId of [complete, selectedOnly]) {
      const before = await unserialized(propertyId);
      const viaPage = await page("GET", `/embed/api/properties/${propertyId}`);
      expect(viaPage.statusCode).toBe(200);
      expect(viaPage.json()).toEqual(before);
      const viaDataApi = await test.app.inject({ url: `/v1/properties/${propertyId}`, headers: bearer });
      expect(viaDataApi.json()).toEqual(before);
    }
    const listed = await test.app.inject({ url: "/v1/properties?external_id=POL-REC-1", headers: bearer });
    expect(listed.json()).toEqual({ data: [await unserialized(complete)], next_cursor: null });
  });

  it("holds what the record is for: products, policy, orders and insured buildings", async () => {
    const record = (await page("GET", `/embed/api/properties/${complete}`)).json();
    expect(Object.keys(record.data).sort()).toEqual(["exposure", "location", "parcel", "structures", "third_party"]);
    expect(record.buildings[0]).toEqual(
      expect.objectContaining({
        building_id: expect.any(Number),
        source_id: expect.any(String),
        attributes: expect.any(Object),
      }),
    );
    expect(record.policy).toEqual({
      external_id: "POL-REC-1",
      secondary_external_id: "SEC-1",
      insured_name: "Jane Doe",
      renewal_date: "2027-01-31",
      premium_amount: 99.5,
      custom_fields: { agent: "A-7" },
    });
    expect(record.orders.map((o: { status: string }) => o.status).sort()).toEqual(["complete", "failed"]);
    expect(record.orders.find((o: { status: string }) => o.status === "failed").reason).toBe("no_parcel_at_location");
    expect(record.policy_buildings[0].role).toBe("primary_dwelling");
    expect(record.policy_buildings.slice(1).every((b: { role: unknown }) => b.role === null)).toBe(true);

    const bare = (await page("GET", `/embed/api/properties/${selectedOnly}`)).json();
    expect(bare).toMatchObject({ parcel: null, buildings: [], data: {}, third_party: null, orders: [] });
    expect(bare.policy_buildings).toHaveLength(1);
  });

  it("answers 404 for another organization's record or none, 400 for an id that is not one", async () => {
    const theirs = await iframeTokenFor(test, (await createTenant(test.services, "Other Mutual")).orgId);
    const response = await page("GET", `/embed/api/properties/${complete}`, { token: theirs });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("property_not_found");
    expect((await page("GET", "/embed/api/properties/99999999")).statusCode).toBe(404);
    expect((await page("GET", "/embed/api/properties/abc")).json().code).toBe("invalid_request");
    expect((await page("GET", "/embed/api/properties/0")).statusCode).toBe(400);
  });

  it("lists the record's versions as the data API does, for the organization's own property only", async () => {
    const viaPage = await page("GET", `/embed/api/properties/${complete}/versions`);
    expect(viaPage.statusCode).toBe(200);
    const viaDataApi = await test.app.inject({ url: `/v1/properties/${complete}/versions`, headers: bearer });
    expect(viaPage.json()).toEqual(viaDataApi.json());
    expect(viaPage.json().data).toEqual([
      { version: 1, created_at: expect.any(String), cause: "order", datasets: expect.any(Array) },
    ]);
    // A property whose order never completed has no version yet.
    expect((await page("GET", `/embed/api/properties/${selectedOnly}/versions`)).json()).toEqual({ data: [] });
    const theirs = await iframeTokenFor(test, (await createTenant(test.services, "Third Mutual")).orgId);
    expect((await page("GET", `/embed/api/properties/${complete}/versions`, { token: theirs })).statusCode).toBe(404);
  });

  it("needs an iframe session: a data API token is refused", async () => {
    const response = await page("GET", `/embed/api/properties/${complete}`, { token: bearer.authorization?.slice(7) });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("session_ended");
  });
});
