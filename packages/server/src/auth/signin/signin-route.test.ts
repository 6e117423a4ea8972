import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createIframeKey } from "../../tenancy/iframe-keys.js";
import { basic, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

function signIn(test: TestApp, authorization?: string) {
  return test.app.inject({
    method: "POST",
    url: "/auth/signin/integration",
    headers: authorization === undefined ? {} : { authorization },
  });
}

/** Signs in and checks `expires` against the JWT and the configured lifetime. */
async function expectTokenLasting(test: TestApp, tenant: TestTenant, ttlSeconds: number) {
  const before = Date.now();
  const response = await signIn(test, basic(tenant.orgId, tenant.iframeKey));
  const after = Date.now();
  expect(response.statusCode).toBe(200);
  const body = response.json();
  expect(Object.keys(body).sort()).toEqual(["expires", "token"]);
  expect(body.expires).toMatch(ISO_UTC);
  const expires = Date.parse(body.expires);
  expect(Number.isNaN(expires)).toBe(false);
  const { exp } = decodeJwt(body.token);
  expect(expires).toBe((exp ?? 0) * 1000);
  // exp is whole seconds: at most one second before the exact lifetime from the moment of the request.
  expect(expires).toBeGreaterThanOrEqual(before - 1000 + ttlSeconds * 1000);
  expect(expires).toBeLessThanOrEqual(after + ttlSeconds * 1000);
  return response;
}

function expectBasicChallenge(response: Awaited<ReturnType<typeof signIn>>) {
  expect(response.statusCode).toBe(401);
  expect(response.headers["www-authenticate"]).toMatch(/^Basic\b/);
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = response.json();
  expect(body).toMatchObject({ status: 401, code: "invalid_credentials" });
  expect(body.token).toBeUndefined();
}

describe("POST /auth/signin/integration", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
    other = await createTenant(test.services, "Other Mutual");
  });
  afterAll(() => test.close());

  it("answers {token, expires} for the organization id and its iframe key, expiring after the default hour", async () => {
    const response = await expectTokenLasting(test, tenant, 3600);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("issues a JWT of its own type and audience, signed by a published key, for the organization", async () => {
    const response = await signIn(test, basic(tenant.orgId, tenant.iframeKey));
    const { token } = response.json();
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe("RS256");
    expect(header.typ).toBeDefined();
    expect(header.typ).not.toBe("at+jwt");
    expect(header.typ).not.toBe("JWT");

    const jwks = (await test.app.inject({ url: "/.well-known/jwks.json" })).json() as JSONWebKeySet;
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: test.config.publicUrl });
    expect(payload.org_id).toBe(tenant.orgId);
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    expect(audiences.length).toBeGreaterThan(0);
    expect(audiences).not.toContain(test.config.apiAudience);
    expect(payload.client_id).toBeUndefined();
  });

  it("issues a token the data API refuses", async () => {
    const { token } = (await signIn(test, basic(tenant.orgId, tenant.iframeKey))).json();
    const response = await test.app.inject({ url: "/v1/me", headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toContain('error="invalid_token"');
  });

  it.each([
    ["no Authorization header", () => undefined],
    ["another scheme", () => "Bearer abc.def.ghi"],
    ["malformed base64", () => "Basic not*base64!"],
    ["base64 without a colon", () => `Basic ${Buffer.from("no-colon-here").toString("base64")}`],
    ["an unknown organization", () => basic("org_doesnotexist", tenant.iframeKey)],
    ["a wrong key", () => basic(tenant.orgId, `${tenant.iframeKey}x`)],
    ["an empty key", () => basic(tenant.orgId, "")],
    ["another organization's key", () => basic(tenant.orgId, other.iframeKey)],
    ["the organization's data API client secret", () => basic(tenant.orgId, tenant.clientSecret)],
    ["the data API client id and secret", () => basic(tenant.clientId, tenant.clientSecret)],
  ])("refuses %s with 401 and a Basic challenge", async (_name, header) => {
    expectBasicChallenge(await signIn(test, header()));
  });

  it("refuses a revoked key while the organization's other key keeps working", async () => {
    const second = await createIframeKey(test.services.db, test.services.digester, other.orgId);
    expect((await signIn(test, basic(other.orgId, second.api_key))).statusCode).toBe(200);

    await test.services.db
      .updateTable("iframe_keys")
      .set({ revoked_at: Date.now() })
      .where("key_id", "=", second.key_id)
      .execute();
    expectBasicChallenge(await signIn(test, basic(other.orgId, second.api_key)));
    expect((await signIn(test, basic(other.orgId, other.iframeKey))).statusCode).toBe(200);
  });

  it("accepts each of an organization's two keys, each for its own organization", async () => {
    const second = await createIframeKey(test.services.db, test.services.digester, tenant.orgId);
    for (const key of [tenant.iframeKey, second.api_key]) {
      const response = await signIn(test, basic(tenant.orgId, key));
      expect(response.statusCode).toBe(200);
      expect(decodeJwt(response.json().token).org_id).toBe(tenant.orgId);
    }
  });
});

describe("POST /auth/signin/integration with LOTLINE_IFRAME_TOKEN_TTL", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp({ LOTLINE_IFRAME_TOKEN_TTL: "600" });
  });
  afterAll(() => test.close());

  it("makes the token expire after the configured lifetime", async () => {
    await expectTokenLasting(test, await createTenant(test.services), 600);
  });
});

describe("POST /auth/signin/integration under repeated failures", () => {
  let test: TestApp;
  beforeAll(async () => {
    // The clock stands still, so the back-off cannot end between the failures and the checks.
    vi.useFakeTimers({ toFake: ["Date"] });
    test = await createTestApp({ LOTLINE_AUTH_FAILURE_LIMIT_CLIENT: "2" });
  });
  afterAll(async () => {
    await test.close();
    vi.useRealTimers();
  });

  it("slows down an organization's failed sign-ins from their address, even with the right key, and nothing else", async () => {
    const target = await createTenant(test.services);
    const bystander = await createTenant(test.services, "Bystander Mutual");
    expectBasicChallenge(await signIn(test, basic(target.orgId, "guess-1")));
    expectBasicChallenge(await signIn(test, basic(target.orgId, "guess-2")));

    const throttled = await signIn(test, basic(target.orgId, target.iframeKey));
    expect(throttled.statusCode).toBe(429);
    const retryAfter = Number(throttled.headers["retry-after"]);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(test.config.authFailureLimits.maxBackoffSeconds);
    expect(throttled.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(throttled.json()).toMatchObject({ status: 429 });
    expect(throttled.json().token).toBeUndefined();

    expect((await signIn(test, basic(bystander.orgId, bystander.iframeKey))).statusCode).toBe(200);
    // The organization's own servers, calling from another address, are not refused for those failures.
    const elsewhere = await test.app.inject({
      method: "POST",
      url: "/auth/signin/integration",
      headers: { authorization: basic(target.orgId, target.iframeKey) },
      remoteAddress: "198.51.100.20",
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});
