import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basic, createTestApp, type TestApp } from "../test/test-app.js";
import { DEMO_ORG_NAME, type DemoCredentials, ensureDemoOrganization } from "./commands/demo-command.js";

describe("the demo organization (lotline demo)", () => {
  let test: TestApp;
  let folder: string;
  let file: string;
  beforeAll(async () => {
    test = await createTestApp();
    folder = mkdtempSync(join(tmpdir(), "lotline-demo-"));
    file = join(folder, "demo-credentials.json");
  });
  afterAll(async () => {
    await test.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function demoOrganizations(): Promise<string[]> {
    const rows = await test.services.db
      .selectFrom("organizations")
      .select("org_id")
      .where("name", "=", DEMO_ORG_NAME)
      .execute();
    return rows.map((row) => row.org_id);
  }

  async function expectWorking(credentials: DemoCredentials): Promise<void> {
    const token = await test.app.inject({
      method: "POST",
      url: "/oauth/token",
      payload: {
        grant_type: "client_credentials",
        client_id: credentials.client_id,
        client_secret: credentials.client_secret,
        audience: test.config.apiAudience,
      },
    });
    expect(token.statusCode).toBe(200);
    const me = await test.app.inject({
      url: "/v1/me",
      headers: { authorization: `Bearer ${token.json().access_token}` },
    });
    expect(me.json()).toEqual({ org_id: credentials.org_id, client_id: credentials.client_id });

    const signin = await test.app.inject({
      method: "POST",
      url: "/auth/signin/integration",
      headers: { authorization: basic(credentials.org_id, credentials.iframe_api_key) },
    });
    expect(signin.statusCode).toBe(200);
    expect(typeof signin.json().token).toBe("string");
  }

  let first: DemoCredentials;

  it("creates one organization and returns the same credentials when run again", async () => {
    first = await ensureDemoOrganization(test.services, file);
    expect(first.org_id).toMatch(/^org_/);
    expect(first.webhook_secret).toMatch(/^whsec_/);
    expect(first.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.iframe_api_key).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const again = await ensureDemoOrganization(test.services, file);
    expect(again).toEqual(first);
    expect(await demoOrganizations()).toEqual([first.org_id]);
    const clients = await test.services.db.selectFrom("api_clients").select("client_id").execute();
    expect(clients.map((client) => client.client_id)).toEqual([first.client_id]);
  });

  it("saves the credentials readable by the owner only", () => {
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("hands out credentials that obtain a bearer token and an iframe token", async () => {
    await expectWorking(first);
  });

  it("issues new working credentials for the same organization when the file is gone", async () => {
    rmSync(file);
    const renewed = await ensureDemoOrganization(test.services, file);
    expect(renewed.org_id).toBe(first.org_id);
    expect(renewed.webhook_secret).toBe(first.webhook_secret);
    expect(renewed.client_id).not.toBe(first.client_id);
    expect(renewed.client_secret).not.toBe(first.client_secret);
    expect(renewed.iframe_api_key).not.toBe(first.iframe_api_key);
    expect(await demoOrganizations()).toEqual([first.org_id]);
    await expectWorking(renewed);
    expect(await ensureDemoOrganization(test.services, file)).toEqual(renewed);
  });

  it("replaces saved credentials that no longer work, keeping the organization", async () => {
    const saved = await ensureDemoOrganization(test.services, file);
    await test.services.db
      .updateTable("api_clients")
      .set({ revoked_at: Date.now() })
      .where("client_id", "=", saved.client_id)
      .execute();
    const renewed = await ensureDemoOrganization(test.services, file);
    expect(renewed.org_id).toBe(saved.org_id);
    expect(renewed.client_id).not.toBe(saved.client_id);
    await expectWorking(renewed);
    expect(await demoOrganizations()).toEqual([saved.org_id]);
  });
});
