import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Settings } from "../../config/config.js";
import { runCli } from "../../test/run-cli.js";
import {
  accessTokenFor,
  createTenant,
  createTestApp,
  type TestApp,
  type TestTenant,
  tokenRequestBody,
} from "../../test/test-app.js";
import { REVOCATIONS_RELOAD_MS } from "../revocation/revocations.js";

describe("lotline client revoke", () => {
  let test: TestApp;
  let env: Settings;
  beforeAll(async () => {
    test = await createTestApp();
    env = { LOTLINE_DATABASE_URL: test.testDatabase.url, LOTLINE_PUBLIC_URL: test.config.publicUrl };
  });
  afterAll(() => test.close());
  afterEach(() => vi.restoreAllMocks());

  async function revoke(clientId: string) {
    const result = await runCli(["client", "revoke", "--client", clientId, "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  const me = (token: string) => test.app.inject({ url: "/v1/me", headers: { authorization: `Bearer ${token}` } });

  /** Moves this process's clock past the revoked-clients reload interval. */
  function afterReloadInterval() {
    const now = Date.now() + REVOCATIONS_RELOAD_MS + 1000;
    vi.spyOn(Date, "now").mockReturnValue(now);
  }

  it("prints the client and an ISO 8601 revocation time, and keeps the first time when revoked again", async () => {
    const tenant = await createTenant(test.services);
    const before = Date.now();
    const first = await revoke(tenant.clientId);
    expect(Object.keys(first).sort()).toEqual(["client_id", "revoked_at"]);
    expect(first.client_id).toBe(tenant.clientId);
    expect(first.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(first.revoked_at as string)).toBeGreaterThanOrEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await revoke(tenant.clientId)).toEqual(first);
  });

  it("describes the revocation without --json", async () => {
    const tenant = await createTenant(test.services);
    const result = await runCli(["client", "revoke", "--client", tenant.clientId], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Revoked data API client ${tenant.clientId}`);
  });

  it("answers an unknown client with client_not_found, exit 2 and one line", async () => {
    const result = await runCli(["client", "revoke", "--client", "cl_unknown", "--json"], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("lotline: no client cl_unknown\n");
  });

  it("requires --client and is listed in the usage", async () => {
    const missing = await runCli(["client", "revoke"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^lotline: --client is required; usage: lotline client revoke --client CLIENT_ID/);
    expect((await runCli(["help"], env)).stdout).toContain("client revoke --client CLIENT_ID [--json]");
  });

  describe("the revoked client's tokens", () => {
    let revoked: TestTenant;
    let sibling: { clientId: string; clientSecret: string };
    let revokedToken: string;
    let siblingToken: string;
    beforeAll(async () => {
      revoked = await createTenant(test.services, "Revoked Mutual");
      const created = await runCli(["client", "create", "--org", revoked.orgId, "--json"], env);
      const parsed = JSON.parse(created.stdout) as { client_id: string; client_secret: string };
      sibling = { clientId: parsed.client_id, clientSecret: parsed.client_secret };
      revokedToken = await accessTokenFor(test, revoked);
      siblingToken = await accessTokenFor(test, { ...revoked, ...sibling });
    });

    it("work until the client is revoked, then answer 401 invalid_token once the reload interval has passed", async () => {
      expect((await me(revokedToken)).statusCode).toBe(200);
      await revoke(revoked.clientId);
      afterReloadInterval();
      const response = await me(revokedToken);
      expect(response.statusCode).toBe(401);
      const challenge = response.headers["www-authenticate"];
      expect(challenge).toMatch(/^Bearer realm="lotline", /);
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toContain("the client has been revoked");
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 401, code: "invalid_token" });
    });

    it("leave another client of the same organization working", async () => {
      afterReloadInterval();
      const response = await me(siblingToken);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ org_id: revoked.orgId, client_id: sibling.clientId });
      expect(await accessTokenFor(test, { ...revoked, ...sibling })).toBeTypeOf("string");
    });

    it("cannot be renewed: the token endpoint answers invalid_client", async () => {
      const response = await test.app.inject({
        method: "POST",
        url: "/oauth/token",
        payload: tokenRequestBody(test, revoked),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe("invalid_client");
    });
  });
});
