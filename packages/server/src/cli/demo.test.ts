import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifyIframeToken } from "../auth/tokens/iframe-token.js";
import { addressLine } from "../geo/store/address-line.js";
import { listCallbackPrefixes } from "../tenancy/callback-prefixes.js";
import { listCustomFields } from "../tenancy/custom-fields.js";
import { listHostOrigins } from "../tenancy/host-origins.js";
import { basic, createTestApp, freePort, type TestApp } from "../test/test-app.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import {
  DEMO_ORG_NAME,
  type DemoCredentials,
  ensureDemoOrganization,
  type RunningDemo,
  startDemo,
} from "./commands/demo-command.js";

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

/**
 * `lotline demo` as a whole: the server and, beside it on its own origin, the demo core system (the package
 * `@lotline/example-core-system`, which must be built: `npx tsc --build`).
 */
describe("lotline demo with its core system", () => {
  let testDatabase: TestDatabase;
  let folder: string;
  const running: RunningDemo[] = [];
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    folder = mkdtempSync(join(tmpdir(), "lotline-demo-host-"));
  });
  afterEach(async () => {
    for (const demo of running.splice(0)) await demo.stop();
  });
  afterAll(async () => {
    await testDatabase.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Starts the demo as `lotline demo` would with `env`, and answers it with what it printed. */
  async function start(env: Record<string, string>) {
    let stdout = "";
    const io = {
      env: { LOTLINE_DATABASE_URL: testDatabase.url, LOTLINE_LOG_LEVEL: "silent", ...env },
      stdout: (text: string) => {
        stdout += text;
      },
      stderr: () => {},
    };
    const demo = await startDemo(io, { credentialsFile: join(folder, "demo-credentials.json") });
    running.push(demo);
    return { demo, stdout };
  }

  async function registrations(demo: RunningDemo) {
    const { db } = demo.server.services;
    const orgId = demo.credentials.org_id;
    return {
      origins: await listHostOrigins(db, orgId),
      prefixes: await listCallbackPrefixes(db, orgId),
      fields: (await listCustomFields(db, orgId)).map((field) => `${field.key}:${field.type}`),
    };
  }

  it("serves the core system on LOTLINE_DEMO_HOST_PORT, registered to frame the pages and take webhooks", async () => {
    const [port, hostPort] = [await freePort(), await freePort()];
    const { demo, stdout } = await start({ PORT: String(port), LOTLINE_DEMO_HOST_PORT: String(hostPort) });
    const coreUrl = `http://127.0.0.1:${hostPort}`;
    expect(demo.coreSystemUrl).toBe(coreUrl);
    expect(stdout).toContain(
      `The demo core system, a stand-in insurer host page on its own origin, is at\n  ${coreUrl}\n`,
    );
    expect(await registrations(demo)).toEqual({
      origins: [coreUrl],
      prefixes: [`${coreUrl}/webhooks`],
      fields: ["year_built:number", "broker:text"],
    });
    // Webhooks may go to the core system on loopback, which the service refuses by default.
    expect(demo.server.services.config.webhookAllowHosts).toEqual(["127.0.0.1"]);

    const page = await fetch(`${coreUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain(`frame-src http://127.0.0.1:${port}`);
    // The core system signs in with the demo organization's iframe key: its token is the organization's.
    const token = (await (await fetch(`${coreUrl}/token`, { method: "POST" })).json()) as { token: string };
    const { keys, config } = demo.server.services;
    expect((await verifyIframeToken(keys, config, token.token)).orgId).toBe(demo.credentials.org_id);
  });

  it("delivers the demo organization's order webhook to the core system, which verifies and keeps it", async () => {
    const { demo } = await start({ PORT: String(await freePort()), LOTLINE_DEMO_HOST_PORT: "0" });
    const coreUrl = demo.coreSystemUrl ?? "";
    const base = demo.server.url;
    const credentials = demo.credentials;
    const tokenResponse = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: credentials.client_id,
        client_secret: credentials.client_secret,
        audience: demo.server.services.config.apiAudience,
      }),
    });
    const { access_token } = (await tokenResponse.json()) as { access_token: string };
    const address = await demo.server.services.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .executeTakeFirstOrThrow();
    const placed = await fetch(`${base}/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ address: addressLine(address), callback_url: `${coreUrl}/webhooks/orders` }),
    });
    expect(placed.status).toBe(202);
    const { order_id } = (await placed.json()) as { order_id: string };

    const deadline = Date.now() + 20_000;
    type Received = { type: string; payload: { data: { order_id: string } } }[];
    let received: Received = [];
    while (Date.now() < deadline && received.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      received = (await (await fetch(`${coreUrl}/webhooks/received`)).json()) as Received;
    }
    expect(received.map((webhook) => [webhook.type, webhook.payload.data.order_id])).toEqual([
      ["order.complete", order_id],
    ]);
  });

  it("creates nothing new when run again, and keeps the operator's LOTLINE_WEBHOOK_ALLOW_HOSTS", async () => {
    const hostPort = await freePort();
    const first = await start({ PORT: "0", LOTLINE_DEMO_HOST_PORT: String(hostPort) });
    const before = await registrations(first.demo);
    await first.demo.stop();
    running.splice(running.indexOf(first.demo), 1);

    const { demo } = await start({
      PORT: "0",
      LOTLINE_DEMO_HOST_PORT: String(hostPort),
      LOTLINE_WEBHOOK_ALLOW_HOSTS: "hooks.example.org",
    });
    expect(demo.credentials).toEqual(first.demo.credentials);
    expect(await registrations(demo)).toEqual(before);
    expect(demo.server.services.config.webhookAllowHosts).toEqual(["hooks.example.org"]);
  });

  it("refuses a LOTLINE_DEMO_HOST_PORT that is not a port, naming the variable", async () => {
    await expect(start({ PORT: "0", LOTLINE_DEMO_HOST_PORT: "80a" })).rejects.toThrow(/^LOTLINE_DEMO_HOST_PORT: /);
  });
});
