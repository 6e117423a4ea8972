import type { PageSession } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iframeTokenKind, issueIframeToken } from "../../auth/tokens/iframe-token.js";
import { signJwt } from "../../auth/tokens/jwt.js";
import { addCustomField } from "../../tenancy/custom-fields.js";
import { addHostOrigin } from "../../tenancy/host-origins.js";
import { createProductMatrix } from "../../tenancy/product-matrices.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";

describe("GET /embed/api/session", () => {
  let test: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    test = await createTestApp({
      LOTLINE_MAP_IMAGERY_URL: "https://tiles.example.com/{z}/{x}/{y}.png",
      LOTLINE_MAP_IMAGERY_ATTRIBUTION: "Tiles © Example",
    });
    tenant = await createTenant(test.services, "Harbour Mutual");
    const { db } = test.services;
    await addHostOrigin(db, tenant.orgId, "https://core.insurer.example");
    await createProductMatrix(db, tenant.orgId, "Flood only", "third_party");
    await addCustomField(db, tenant.orgId, { key: "agent", label: "Agent", type: "text", required: true });
    await addCustomField(db, tenant.orgId, { key: "has_pool", label: "Pool", type: "boolean", required: false });
  });
  afterAll(() => test.close());

  const session = (authorization?: string) =>
    test.app.inject({ url: "/embed/api/session", headers: authorization === undefined ? {} : { authorization } });

  it("answers the page session of the token's organization, its time left counted by the server", async () => {
    const { token, expires } = await issueIframeToken(test.services.keys, test.config, tenant.orgId);
    const response = await session(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const body = response.json<PageSession>();
    expect(body).toEqual({
      org_id: tenant.orgId,
      org_name: "Harbour Mutual",
      expires_at: expires,
      expires_in: expect.any(Number),
      host_origins: ["https://core.insurer.example"],
      product_matrices: [
        { product_matrix_id: expect.any(String), name: "All products", products: expect.any(Array), is_default: true },
        { product_matrix_id: expect.any(String), name: "Flood only", products: ["third_party"], is_default: false },
      ],
      custom_fields: [
        { key: "agent", label: "Agent", type: "text", required: true },
        { key: "has_pool", label: "Pool", type: "boolean", required: false },
      ],
      map: { imagery_url: "https://tiles.example.com/{z}/{x}/{y}.png", imagery_attribution: "Tiles © Example" },
    });
    expect(body.expires_in).toBeGreaterThan(test.config.iframeTokenTtlSeconds - 5);
    expect(body.expires_in).toBeLessThanOrEqual(test.config.iframeTokenTtlSeconds);
  });

  it("counts down: a token with two minutes left says so", async () => {
    const kind = iframeTokenKind(test.config);
    const { token } = await signJwt(test.services.keys, kind, tenant.orgId, { org_id: tenant.orgId }, 120);
    const body = (await session(`Bearer ${token}`)).json<PageSession>();
    expect(body.expires_in).toBeGreaterThan(115);
    expect(body.expires_in).toBeLessThanOrEqual(120);
  });

  it("answers 401 session_ended without a token, or with one that is not a live iframe token", async () => {
    const kind = iframeTokenKind(test.config);
    const expired = (await signJwt(test.services.keys, kind, tenant.orgId, { org_id: tenant.orgId }, -60)).token;
    const gone = await createTenant(test.services, "Gone Mutual");
    const orphan = (await issueIframeToken(test.services.keys, test.config, gone.orgId)).token;
    await test.services.db.deleteFrom("organizations").where("org_id", "=", gone.orgId).execute();
    const refusals: [string, string | undefined][] = [
      ["no Authorization header", undefined],
      ["a malformed token", "Bearer not-a-jwt"],
      ["a data API token", `Bearer ${await accessTokenFor(test, tenant)}`],
      ["an expired iframe token", `Bearer ${expired}`],
      ["the token of an organization that no longer exists", `Bearer ${orphan}`],
    ];
    for (const [name, authorization] of refusals) {
      const response = await session(authorization);
      expect(response.statusCode, name).toBe(401);
      expect(response.headers["content-type"], name).toMatch(/^application\/problem\+json/);
      expect(response.json(), name).toMatchObject({ status: 401, code: "session_ended" });
      expect(response.body, name).not.toContain("Harbour");
    }
  });
});
