import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCustomField } from "../../tenancy/custom-fields.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";

describe("custom fields through the data API", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let token: string;
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
    token = await accessTokenFor(test, tenant);
    const { db } = test.services;
    await addCustomField(db, tenant.orgId, { key: "agent", label: "Agent", type: "text", required: true });
    await addCustomField(db, tenant.orgId, { key: "year_built", label: "Year built", type: "number", required: false });
    await addCustomField(db, tenant.orgId, { key: "inspected_on", label: "Inspected", type: "date", required: false });
  });
  afterAll(() => test.close());

  const api = (method: "GET" | "POST", url: string, payload?: object, as = token) =>
    test.app.inject({ method, url, headers: { authorization: `Bearer ${as}` }, ...(payload ? { payload } : {}) });

  it("GET /v1/custom-fields lists the caller's fields, in order, and no one else's", async () => {
    const other = await createTenant(test.services, "Other Mutual");
    await addCustomField(test.services.db, other.orgId, {
      key: "secret",
      label: "Theirs",
      type: "text",
      required: false,
    });
    const response = await api("GET", "/v1/custom-fields");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        { key: "agent", label: "Agent", type: "text", required: true },
        { key: "year_built", label: "Year built", type: "number", required: false },
        { key: "inspected_on", label: "Inspected", type: "date", required: false },
      ],
    });
    const theirs = await api("GET", "/v1/custom-fields", undefined, await accessTokenFor(test, other));
    expect(theirs.json().data.map((field: { key: string }) => field.key)).toEqual(["secret"]);
  });

  it("GET /v1/custom-fields needs a bearer token and is in the OpenAPI document", async () => {
    const anonymous = await test.app.inject({ url: "/v1/custom-fields" });
    expect(anonymous.statusCode).toBe(401);
    const document = (await test.app.inject({ url: "/v1/openapi.json" })).json();
    const operation = document.paths["/v1/custom-fields"]?.get;
    expect(operation?.security).toEqual([{ bearer: [] }]);
    expect(operation?.responses?.["200"]).toBeDefined();
  });

  it("POST /v1/orders refuses custom fields that break the organization's definitions, and stores nothing", async () => {
    const before = await test.services.db.selectFrom("orders").select("order_id").execute();
    const refused = await api("POST", "/v1/orders", {
      location: { lat: 42.37, lon: -71.11 },
      external_id: "POL-CF-1",
      custom_fields: { agent: "A. Agent", year_built: "nineteen-eighty", inspected_on: "2025-02-30" },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const problem = refused.json();
    expect(problem.code).toBe("invalid_custom_fields");
    expect(problem.detail).toContain('"year_built"');
    expect(problem.detail).toContain('"inspected_on"');
    expect(problem.detail).not.toContain('"agent"');

    const missing = await api("POST", "/v1/orders", { location: { lat: 42.37, lon: -71.11 } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ code: "invalid_custom_fields", detail: expect.stringContaining('"agent"') });
    expect(await test.services.db.selectFrom("orders").select("order_id").execute()).toEqual(before);
  });

  it("POST /v1/orders accepts valid custom fields and stores them as given", async () => {
    const customFields = { agent: "A. Agent", year_built: 1987, inspected_on: "2024-02-29" };
    const accepted = await api("POST", "/v1/orders", {
      location: { lat: 42.37, lon: -71.11 },
      external_id: "POL-CF-2",
      custom_fields: customFields,
    });
    expect(accepted.statusCode).toBe(202);
    const property = await api("GET", `/v1/properties/${accepted.json().property_id}`);
    expect(property.statusCode).toBe(200);
    expect(property.json().policy.custom_fields).toEqual(customFields);
  });

  it("POST /v1/orders refuses keys the organization has not defined (another's too) and oversized values", async () => {
    const other = await createTenant(test.services, "Neighbour Mutual");
    await addCustomField(test.services.db, other.orgId, {
      key: "broker",
      label: "Broker",
      type: "text",
      required: false,
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ agent: "A. Agent", channel: ["web", 2] }, "custom_fields.channel"],
      [{ agent: "A. Agent", broker: "theirs" }, "custom_fields.broker"],
      [{ agent: "x".repeat(900_000) }, "custom_fields.agent"],
    ];
    for (const [customFields, field] of cases) {
      const refused = await api("POST", "/v1/orders", {
        location: { lat: 42.37, lon: -71.11 },
        custom_fields: customFields,
      });
      expect(refused.statusCode, field).toBe(422);
      expect(refused.json()).toMatchObject({ code: "invalid_custom_fields", errors: [{ field }] });
    }
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`field_${index}`, 1]));
    const crowded = await api("POST", "/v1/orders", { location: { lat: 42.37, lon: -71.11 }, custom_fields: many });
    expect(crowded.statusCode).toBe(400);
    expect(crowded.json()).toMatchObject({ code: "invalid_request", errors: [{ field: "custom_fields" }] });
  });
});
