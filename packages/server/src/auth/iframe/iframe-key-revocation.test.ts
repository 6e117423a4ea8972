import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Settings } from "../../config/config.js";
import { runCli } from "../../test/run-cli.js";
import { createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import {
  claimsOf,
  iframeTokenAt,
  type OtherProcess,
  otherProcess,
  page,
  pageSession,
  passReloadInterval,
  signIn,
} from "../revocation/test-deployment.js";

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("lotline iframe-key list and revoke", () => {
  let test: TestApp;
  let env: Settings;
  /** A second process that reloads the revocations at every request (the interval injected instead of 30 s). */
  let eager: OtherProcess;
  beforeAll(async () => {
    test = await createTestApp({}, { listen: true });
    env = { LOTLINE_DATABASE_URL: test.testDatabase.url, LOTLINE_PUBLIC_URL: test.config.publicUrl };
    eager = await otherProcess(test, { revocationReloadMs: 0 });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await eager.close();
    await test.close();
  });

  /** Runs a command that must succeed with `--json`, and returns its one JSON object. */
  async function cli(argv: string[]): Promise<Record<string, unknown>> {
    const result = await runCli([...argv, "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  /** A second iframe key for the tenant, through the CLI. */
  async function secondKey(tenant: TestTenant): Promise<{ keyId: string; apiKey: string }> {
    const created = await cli(["iframe-key", "create", "--org", tenant.orgId, "--public-url", test.url]);
    return { keyId: created.key_id as string, apiKey: created.api_key as string };
  }

  it("creates keys with their id, and lists ids and times but never a key", async () => {
    const tenant = await createTenant(test.services, "Listed Mutual");
    const created = await cli(["iframe-key", "create", "--org", tenant.orgId, "--public-url", test.url]);
    expect(Object.keys(created).sort()).toEqual(["api_key", "iframe_auth_url", "key_id", "org_id"]);
    expect(created.key_id).toMatch(/^ik_[0-9a-z]{16}$/);

    const result = await runCli(["iframe-key", "list", "--org", tenant.orgId, "--json"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(created.api_key);
    expect(result.stdout).not.toContain(tenant.iframeKey);
    const listed = JSON.parse(result.stdout) as { org_id: string; iframe_keys: Record<string, unknown>[] };
    expect(listed.org_id).toBe(tenant.orgId);
    expect(listed.iframe_keys).toHaveLength(2);
    for (const key of listed.iframe_keys) {
      expect(Object.keys(key).sort()).toEqual(["created_at", "key_id", "revoked_at"]);
      expect(key.created_at).toMatch(ISO_TIME);
      expect(key.revoked_at).toBeNull();
    }
    expect(listed.iframe_keys[1]?.key_id).toBe(created.key_id);

    const text = await runCli(["iframe-key", "list", "--org", tenant.orgId], env);
    expect(text.stdout).toContain(created.key_id as string);
  });

  it("revokes a key once: revoking again keeps the first time, and the list shows it", async () => {
    const tenant = await createTenant(test.services, "Revoking Mutual");
    const { keyId } = await secondKey(tenant);
    const first = await cli(["iframe-key", "revoke", "--key", keyId]);
    expect(Object.keys(first).sort()).toEqual(["key_id", "org_id", "revoked_at"]);
    expect(first).toMatchObject({ key_id: keyId, org_id: tenant.orgId });
    expect(first.revoked_at).toMatch(ISO_TIME);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await cli(["iframe-key", "revoke", "--key", keyId])).toEqual(first);

    const listed = (await cli(["iframe-key", "list", "--org", tenant.orgId])).iframe_keys as Record<string, unknown>[];
    expect(listed.find((key) => key.key_id === keyId)?.revoked_at).toBe(first.revoked_at);
    expect(listed.filter((key) => key.revoked_at === null)).toHaveLength(1);

    const text = await runCli(["iframe-key", "revoke", "--key", keyId], env);
    expect(text.stdout).toContain(`Revoked iframe key ${keyId}`);
  });

  it("answers an unknown key or organization with exit 2 and one line", async () => {
    const unknownKey = await runCli(["iframe-key", "revoke", "--key", "ik_unknown", "--json"], env);
    expect(unknownKey).toEqual({ code: 2, stdout: "", stderr: "lotline: no iframe key ik_unknown\n" });
    const unknownOrg = await runCli(["iframe-key", "list", "--org", "org_unknown", "--json"], env);
    expect(unknownOrg.code).toBe(2);
    expect(unknownOrg.stderr).toMatch(/^lotline: [^\n]*org_unknown[^\n]*\n$/);
    const missing = await runCli(["iframe-key", "revoke"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^lotline: --key is required; usage: lotline iframe-key revoke --key KEY_ID/);
  });

  describe("a revoked key and the sessions signed in with it", () => {
    let tenant: TestTenant;
    let revoked: { keyId: string; apiKey: string };
    let revokedSession: string;
    let keptSession: string;
    beforeAll(async () => {
      tenant = await createTenant(test.services, "Rotating Mutual");
      revoked = await secondKey(tenant);
      revokedSession = await iframeTokenAt(test.url, tenant.orgId, revoked.apiKey);
      keptSession = await iframeTokenAt(test.url, tenant.orgId, tenant.iframeKey);
      // Both processes have loaded the revocations and accepted the session before the key is revoked.
      expect((await pageSession(test.url, revokedSession)).status).toBe(200);
      expect((await pageSession(eager.url, revokedSession)).status).toBe(200);
      const served = await page(test.url, revokedSession);
      expect(served.headers.get("location")).toBeNull();
      await cli(["iframe-key", "revoke", "--key", revoked.keyId]);
    });

    it("names the key it was signed in with", () => {
      expect(claimsOf(revokedSession).ikid).toBe(revoked.keyId);
      expect(claimsOf(keptSession).ikid).toMatch(/^ik_/);
      expect(claimsOf(keptSession).ikid).not.toBe(revoked.keyId);
    });

    it("cannot sign in any more, at once, on any process; the organization's other key still can", async () => {
      for (const base of [test.url, eager.url]) {
        const response = await signIn(base, tenant.orgId, revoked.apiKey);
        expect(response.status).toBe(401);
        expect(response.headers.get("www-authenticate")).toMatch(/^Basic /);
        expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
        expect((await signIn(base, tenant.orgId, tenant.iframeKey)).status).toBe(200);
      }
    });

    it("ends its sessions on a process at its next reload: page API 401 session_ended", async () => {
      const response = await pageSession(eager.url, revokedSession);
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const body = (await response.json()) as { code: string; detail: string };
      expect(body.code).toBe("session_ended");
      expect(body.detail).toContain("revoked");
      expect((await pageSession(eager.url, keptSession)).status).toBe(200);
    });

    it("ends them on every process within the 30-second reload interval, the pages going to /login", async () => {
      passReloadInterval();
      const api = await pageSession(test.url, revokedSession);
      expect(api.status).toBe(401);
      expect(((await api.json()) as { code: string }).code).toBe("session_ended");

      for (const base of [test.url, eager.url]) {
        const response = await page(base, revokedSession);
        expect(response.status).toBe(302);
        // As for an expired session: the login page tells the organization's host, which can sign in again.
        const location = new URL(response.headers.get("location") ?? "", base);
        expect(location.pathname).toBe("/login");
        expect(location.searchParams.get("reason")).toBe("expired");
        expect(location.searchParams.get("org")).toBe(tenant.orgId);
        expect(response.headers.get("cache-control")).toBe("no-store");
      }
    });

    it("leaves the sessions of the organization's other key working", async () => {
      passReloadInterval();
      expect((await pageSession(test.url, keptSession)).status).toBe(200);
      expect((await page(test.url, keptSession)).headers.get("location")).toBeNull();
    });
  });
});
