import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";

describe("GET /v1/me behind the bearer guard", () => {
  let test: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    test = await createTestApp();
    tenant = await createTenant(test.services);
  });
  afterAll(() => test.close());

  it("answers with the caller's organization and client for a valid token", async () => {
    const token = await accessTokenFor(test, tenant);
    const response = await test.app.inject({ url: "/v1/me", headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ org_id: tenant.orgId, client_id: tenant.clientId });
  });

  it("challenges a request without credentials, with no error code", async () => {
    const response = await test.app.inject({ url: "/v1/me" });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toBe('Bearer realm="lotline"');
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });
});
