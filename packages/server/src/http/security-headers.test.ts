import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueIframeToken } from "../auth/tokens/iframe-token.js";
import { importDemoNeighbourhood } from "../geo/import/import-demo-neighbourhood.js";
import { addressLine } from "../geo/store/address-line.js";
import { createTenant, createTestApp, type TestApp, type TestTenant } from "../test/test-app.js";
import { createJobRunner } from "../workers/background-work.js";

/**
 * `fetch`, with the whole body read off the connection. These tests look at headers only, and a body left unread
 * (the OpenAPI document) held the server's write on a connection that closing the application then waited for
 * until the hook's timeout.
 */
async function fetchWhole(url: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  await response.clone().arrayBuffer();
  return response;
}

/** Every answer of the service, over real HTTP: what a browser and a shared cache get to see. */
describe("security headers", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let token: string;
  let jwt: string;
  beforeAll(async () => {
    test = await createTestApp({}, { listen: true });
    tenant = await createTenant(test.services);
    const response = await post("/oauth/token", {
      grant_type: "client_credentials",
      client_id: tenant.clientId,
      client_secret: tenant.clientSecret,
      audience: test.config.apiAudience,
    });
    token = ((await response.json()) as { access_token: string }).access_token;
    jwt = (await issueIframeToken(test.services.keys, test.config, tenant.orgId)).token;
  });
  afterAll(() => test.close());

  const get = (path: string, bearer?: string) =>
    fetchWhole(`${test.url}${path}`, {
      redirect: "manual",
      headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` },
    });
  const post = (path: string, body: unknown, bearer?: string) =>
    fetchWhole(`${test.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      },
      body: JSON.stringify(body),
    });

  it("sends X-Content-Type-Options: nosniff on every answer: data API, token endpoint, page API, pages, errors", async () => {
    const answers: [string, Response][] = [
      ["/v1/me", await get("/v1/me", token)],
      ["/v1/me without a token", await get("/v1/me")],
      ["/v1/openapi.json", await get("/v1/openapi.json")],
      ["/oauth/token refused", await post("/oauth/token", { grant_type: "client_credentials" })],
      ["/auth/signin/integration refused", await post("/auth/signin/integration", {})],
      ["/embed/api/session", await get("/embed/api/session", jwt)],
      ["/embed/api/session without a token", await get("/embed/api/session")],
      ["/property-profile/new-order without a jwt", await get("/property-profile/new-order")],
      ["/login", await get("/login")],
      ["/.well-known/jwks.json", await get("/.well-known/jwks.json")],
      ["/healthz", await get("/healthz")],
      ["an unknown path", await get("/nowhere")],
    ];
    for (const [what, response] of answers) {
      expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
      expect(response.headers.get("strict-transport-security"), what).toBeNull();
    }
    expect(answers[0]?.[1].status).toBe(200);
    expect(answers[5]?.[1].status).toBe(200);
  });

  it("sends Cache-Control: no-store on data API and page API answers, errors included", async () => {
    for (const response of [
      await get("/v1/me", token),
      await get("/v1/me"),
      await get("/v1/properties/999999", token),
      await get("/embed/api/session", jwt),
      await get("/embed/api/session"),
    ]) {
      expect(response.headers.get("cache-control"), response.url).toBe("no-store");
    }
    // Public documents keep the caching they ask for.
    expect((await get("/.well-known/jwks.json")).headers.get("cache-control")).toMatch(/^public/);
  });

  it("sends Cache-Control: no-store with a property record", async () => {
    await importDemoNeighbourhood(test.services.database);
    const row = await test.services.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .executeTakeFirstOrThrow();
    const placed = await post("/v1/orders", { address: addressLine(row) }, token);
    expect(placed.status, await placed.clone().text()).toBe(202);
    const { property_id } = (await placed.json()) as { property_id: number };
    await createJobRunner(test.services).drain();

    const record = await get(`/v1/properties/${property_id}`, token);
    expect(record.status).toBe(200);
    expect(record.headers.get("cache-control")).toBe("no-store");
    expect(record.headers.get("x-content-type-options")).toBe("nosniff");
    const list = await get("/v1/properties?external_id=none", token);
    expect(list.headers.get("cache-control")).toBe("no-store");
  });
});

describe("security headers of a service reached over https", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp({ LOTLINE_PUBLIC_URL: "https://lotline.example.com" }, { listen: true });
  });
  afterAll(() => test.close());

  it("add Strict-Transport-Security to every answer", async () => {
    const address = test.app.server.address();
    const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    for (const path of ["/healthz", "/v1/me", "/login", "/nowhere"]) {
      const response = await fetchWhole(`${origin}${path}`);
      expect(response.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });
});
