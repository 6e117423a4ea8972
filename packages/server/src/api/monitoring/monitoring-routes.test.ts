import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCallbackPrefix } from "../../tenancy/callback-prefixes.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";

describe("/v1/monitoring", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let token: string;
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
    token = await accessTokenFor(test, tenant);
    await addCallbackPrefix(test.services.db, tenant.orgId, "https://core.example.com/hooks/");
  });
  afterAll(() => test.close());

  const api = (method: "GET" | "PUT" | "DELETE", payload?: object, as = token) =>
    test.app.inject({
      method,
      url: "/v1/monitoring",
      headers: { authorization: `Bearer ${as}` },
      ...(payload ? { payload } : {}),
    });

  it("has no callback until one is set; PUT sets it, GET reads it, DELETE stops it", async () => {
    expect((await api("GET")).json()).toEqual({ callback_url: null, updated_at: null });

    const before = Date.now();
    const set = await api("PUT", { callback_url: "https://core.example.com/hooks/monitoring" });
    expect(set.statusCode).toBe(200);
    const body = set.json();
    expect(body.callback_url).toBe("https://core.example.com/hooks/monitoring");
    expect(Date.parse(body.updated_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await api("GET")).json()).toEqual(body);

    const changed = await api("PUT", { callback_url: "https://core.example.com/hooks/catastrophes" });
    expect(changed.json().callback_url).toBe("https://core.example.com/hooks/catastrophes");

    expect((await api("DELETE")).statusCode).toBe(204);
    expect((await api("GET")).json()).toEqual({ callback_url: null, updated_at: null });
  });

  it("refuses a URL outside the registered prefixes, or no URL at all, and keeps the one set", async () => {
    await api("PUT", { callback_url: "https://core.example.com/hooks/monitoring" });
    const outside = await api("PUT", { callback_url: "https://elsewhere.example.net/hooks/monitoring" });
    expect(outside.statusCode).toBe(422);
    expect(outside.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(outside.json().code).toBe("callback_url_not_registered");
    for (const payload of [
      {},
      { callback_url: "not a url" },
      { callback_url: "https://core.example.com/hooks/x", extra: 1 },
    ]) {
      const refused = await api("PUT", payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(500);
    }
    expect((await api("GET")).json().callback_url).toBe("https://core.example.com/hooks/monitoring");
  });

  it("is each organization's own, and needs a bearer token", async () => {
    const other = await createTenant(test.services, "Other Mutual");
    const theirs = await api("GET", undefined, await accessTokenFor(test, other));
    expect(theirs.json()).toEqual({ callback_url: null, updated_at: null });
    expect((await test.app.inject({ url: "/v1/monitoring" })).statusCode).toBe(401);
  });
});
