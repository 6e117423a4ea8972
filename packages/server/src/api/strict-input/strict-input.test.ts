import { MAX_JSON_DEPTH } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iframeTokenFor } from "../../page-api/test-page-api.js";
import {
  accessTokenFor,
  basic,
  createTenant,
  createTestApp,
  type TestApp,
  type TestTenant,
} from "../../test/test-app.js";

/** JSON text of a value nested `depth` levels deep, objects and arrays by turns (as text: no client recursion). */
function nestedJson(depth: number): string {
  const opening = Array.from({ length: depth }, (_, level) => (level % 2 ? "[" : '{"deeper":'));
  const closing = opening.map((open) => (open === "[" ? "]" : "}")).reverse();
  return `${opening.join("")}"leaf"${closing.join("")}`;
}

describe("strict input: no coercion, no unstorable text, no deep nesting, ids within range", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let token: string;
  let iframe: string;
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
    token = await accessTokenFor(test, tenant);
    iframe = await iframeTokenFor(test, tenant.orgId);
  });
  afterAll(() => test.close());

  const api = (method: "GET" | "POST", url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    test.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
  const orderCount = async () => (await api("GET", "/v1/orders?limit=100")).json().data.length;

  /** The request is refused with 400 invalid_request naming `field` (and nothing is stored). */
  async function expectRefused(response: Awaited<ReturnType<typeof api>>, field: string, reason?: RegExp) {
    expect(response.statusCode, response.body).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const problem = response.json();
    expect(problem).toMatchObject({ status: 400, code: "invalid_request", errors: [{ field }] });
    if (reason) expect(problem.errors[0].reason).toMatch(reason);
  }

  it("takes no value of the wrong type in an order: nothing is coerced, nothing stored", async () => {
    const before = await orderCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ address: 42 }, "address"],
      [{ address: "1 Main St", premium_amount: "0x10" }, "premium_amount"],
      [{ address: "1 Main St", premium_amount: true }, "premium_amount"],
      [{ address: "1 Main St", premium_amount: "12" }, "premium_amount"],
      [{ location: { lat: null, lon: 0 } }, "location.lat"],
      [{ location: { lat: "42.3", lon: -71 } }, "location.lat"],
      [{ location: { lat: 42.3 } }, "location.lon"],
      [{ address: ["1 Main St"] }, "address"],
      [{ address: "1 Main St", external_id: 7 }, "external_id"],
      [
        { address: "1 Main St", parcel_boundary: { type: "Polygon", coordinates: [[["0", "0"]]] } },
        "parcel_boundary.coordinates[0]",
      ],
    ];
    for (const [payload, field] of cases) await expectRefused(await api("POST", "/v1/orders", payload), field);
    // JSON's own text for a number too large for any: it parses as Infinity, which is no number here.
    const json = { "content-type": "application/json" };
    const huge = await api("POST", "/v1/orders", '{"address":"1 Main St","premium_amount":1e309}', json);
    await expectRefused(huge, "premium_amount");
    await expectRefused(await api("POST", "/v1/orders", '{"location":{"lat":-1e309,"lon":0}}', json), "location.lat");
    expect(await orderCount()).toBe(before);
  });

  it("names an unknown member without echoing all of a long name", async () => {
    const long = `colour${"r".repeat(100_000)}`;
    const response = await api("POST", "/v1/orders", { address: "1 Main St", [long]: 1 });
    await expectRefused(response, `${long.slice(0, 63)}…`, /not a field/);
    expect(response.body.length).toBeLessThan(1_000);
  });

  it("takes no blank address, external id or name", async () => {
    for (const field of ["address", "external_id", "secondary_external_id", "insured_name"]) {
      const payload = { address: "1 Main St", [field]: " \t " };
      await expectRefused(await api("POST", "/v1/orders", payload), field, /must not be blank/);
    }
  });

  it("refuses NUL and lone surrogates in bodies, member names, filters and paths, on every database", async () => {
    await expectRefused(await api("POST", "/v1/orders", { address: "1 Main\u0000St" }), "address", /NUL/);
    await expectRefused(
      await api("POST", "/v1/orders", { address: "1 Main St", external_id: "POL-\ud800" }),
      "external_id",
    );
    await expectRefused(
      await api("POST", "/v1/orders", { address: "1 Main St", custom_fields: { "ag\u0000ent": "x" } }),
      "custom_fields.ag\\u0000ent",
    );
    // A surrogate escaped in the JSON text itself, as another client's serializer may write it.
    const raw = '{"address":"1 Main St","insured_name":"\\udc00 Doe"}';
    await expectRefused(await api("POST", "/v1/orders", raw, { "content-type": "application/json" }), "insured_name");
    await expectRefused(await api("GET", "/v1/orders?external_id=POL%00"), "external_id");
    await expectRefused(await api("GET", "/v1/properties?external_id=%00"), "external_id");
    await expectRefused(await api("GET", "/v1/addresses?q=1%00Main"), "q");
    await expectRefused(await api("GET", "/v1/orders/ord_%00"), "order_id");
    await expectRefused(await api("POST", "/v1/webhook-deliveries/msg_%00/redeliver"), "webhook_id");
  });

  it("parses query and path numbers strictly and within the database's range", async () => {
    for (const id of ["2147483648", "99999999999999999999", "1e3", "0x10", "1.5", "-1", "0"]) {
      await expectRefused(await api("GET", `/v1/properties/${id}`), "property_id");
    }
    expect((await api("GET", "/v1/properties/2147483647")).statusCode).toBe(404);
    for (const limit of ["Infinity", "1e309", "0x10", "", " 5", "5.0", "true", "1e1"]) {
      await expectRefused(await api("GET", `/v1/orders?limit=${encodeURIComponent(limit)}`), "limit");
    }
    expect((await api("GET", "/v1/orders?limit=5")).statusCode).toBe(200);
    await expectRefused(await api("GET", "/v1/webhook-deliveries?limit=Infinity"), "limit");
    await expectRefused(await api("GET", "/v1/addresses?q=main&limit=0x5"), "limit");
  });

  it("refuses forged cursors that name values the database cannot compare", async () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    for (const cursor of [forged([1e300, "ord_x"]), forged([1, "ord_\u0000"]), forged([-1, "ord_x"])]) {
      const response = await api("GET", `/v1/orders?cursor=${cursor}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe("invalid_cursor");
    }
    for (const cursor of [forged([1e300, "msg_x"]), forged([1, "msg_\u0000"])]) {
      expect((await api("GET", `/v1/webhook-deliveries?cursor=${cursor}`)).json().code).toBe("invalid_cursor");
    }
    const propertyCursor = Buffer.from("2147483648").toString("base64url");
    const response = await api("GET", `/v1/properties?external_id=POL&cursor=${propertyCursor}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe("invalid_cursor");
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels before anything recurses over it`, async () => {
    const order = (depth: number) => `{"address":"1 Main St","custom_fields":{"agent":${nestedJson(depth)}}}`;
    const json = { "content-type": "application/json", "idempotency-key": "deep-1" };
    const refused = await api("POST", "/v1/orders", order(100_000), json);
    expect(refused.statusCode).toBe(400);
    const [fault] = refused.json().errors;
    expect(fault.field).toMatch(/^custom_fields\.agent\.deeper\[0\]\.deeper/);
    expect(fault.reason).toBe(`nests deeper than ${MAX_JSON_DEPTH} levels`);
    const oneTooDeep = await api("POST", "/v1/orders", order(MAX_JSON_DEPTH - 1), json);
    expect(oneTooDeep.statusCode).toBe(400);
    expect(oneTooDeep.json().errors[0].reason).toBe(`nests deeper than ${MAX_JSON_DEPTH} levels`);
    // As deep as allowed passes this check and meets the next one: agent is no field of the organization.
    const checked = await api("POST", "/v1/orders", order(MAX_JSON_DEPTH - 2), json);
    expect(checked.statusCode).toBe(422);
    expect(checked.json().code).toBe("invalid_custom_fields");
  });

  it("applies the same rules to the page API", async () => {
    const page = (method: "GET" | "POST", url: string, payload?: unknown) =>
      test.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${iframe}` },
        ...(payload === undefined ? {} : { payload: payload as string }),
      });
    await expectRefused(await page("GET", "/embed/api/properties/2147483648"), "property_id");
    await expectRefused(await page("GET", "/embed/api/lots?lat=1e309&lon=0"), "lat");
    await expectRefused(await page("GET", "/embed/api/lots?lat=0x10&lon=0"), "lat");
    await expectRefused(await page("POST", "/embed/api/orders", { location: { lat: true, lon: 0 } }), "location.lat");
    const footprints = { address: "1 Main St", parcel_id: 2147483648, buildings: [{ building_id: 1 }] };
    await expectRefused(await page("POST", "/embed/api/footprints", footprints), "parcel_id");
    await expectRefused(
      await page("POST", "/embed/api/footprints", { ...footprints, parcel_id: 1, address: "  " }),
      "address",
    );
  });

  it("answers NUL in token parameters and Basic credentials in each endpoint's own words, never 500", async () => {
    const audience = test.config.apiAudience;
    const json = await test.app.inject({
      method: "POST",
      url: "/oauth/token",
      payload: { grant_type: "client_credentials", client_id: "cl_\u0000", client_secret: "x", audience },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("client_id"),
    });
    const form = await test.app.inject({
      method: "POST",
      url: "/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `grant_type=client_credentials&client_id=${tenant.clientId}%00&client_secret=x&audience=${audience}`,
    });
    expect(form.statusCode).toBe(400);
    expect(form.json().error).toBe("invalid_request");
    const basicToken = await test.app.inject({
      method: "POST",
      url: "/oauth/token",
      headers: { authorization: basic(`${tenant.clientId}%00`, tenant.clientSecret) },
      payload: { grant_type: "client_credentials", audience },
    });
    expect(basicToken.statusCode).toBe(400);
    expect(basicToken.json().error).toBe("invalid_request");
    for (const credentials of [basic(`${tenant.orgId}\u0000`, tenant.iframeKey), basic(tenant.orgId, "\u0000")]) {
      const signin = await test.app.inject({
        method: "POST",
        url: "/auth/signin/integration",
        headers: { authorization: credentials },
      });
      expect(signin.statusCode).toBe(401);
      expect(signin.headers["www-authenticate"]).toMatch(/^Basic/);
    }
  });
});
