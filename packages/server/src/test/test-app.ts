import { createServer } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { type Config, loadConfig, type Settings } from "../config/config.js";
import { createServices, type Services } from "../services.js";
import { createApiClient } from "../tenancy/api-clients.js";
import { createIframeKey } from "../tenancy/iframe-keys.js";
import { createOrganization } from "../tenancy/organizations.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

export interface TestApp {
  config: Config;
  services: Services;
  app: FastifyInstance;
  testDatabase: TestDatabase;
  /** Base URL when started with `listen: true`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The whole application over a fresh database of the current dialect. With `listen`, it also listens on a free
 * loopback port, and the public URL (the tokens' issuer) is that address, so real HTTP clients can use it.
 */
export async function createTestApp(settings: Settings = {}, { listen = false } = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase();
  const port = listen ? await freePort() : 8080;
  const config = loadConfig({
    LOTLINE_DATABASE_URL: testDatabase.url,
    PORT: String(port),
    LOTLINE_PUBLIC_URL: listen ? `http://127.0.0.1:${port}` : "http://lotline.test",
    ...settings,
  });
  const services = await createServices(config, testDatabase.database);
  const app = await buildApp(services);
  if (listen) await app.listen({ port, host: "127.0.0.1" });
  return {
    config,
    services,
    app,
    testDatabase,
    url: config.publicUrl,
    async close() {
      await sayingIfSlow("closing the application", () => app.close(), app);
      await sayingIfSlow("removing its database", () => testDatabase.destroy());
    },
  };
}

/** How long a step of closing a test application may take before it says what it waits on. */
const SLOW_CLOSE_MS = 5_000;

/**
 * Runs one step of closing, saying on stderr what the process still waits on should it take longer than
 * {@link SLOW_CLOSE_MS}: a close that hangs until the hook's timeout would otherwise leave no trace of which step
 * hung, or on what.
 */
async function sayingIfSlow(step: string, run: () => Promise<void>, app?: FastifyInstance): Promise<void> {
  const timer = setTimeout(() => {
    const waiting = process.getActiveResourcesInfo().join(", ");
    const say = (connections: string) =>
      process.stderr.write(`${step} has taken over ${SLOW_CLOSE_MS} ms; ${connections}waiting on ${waiting}\n`);
    if (app) app.server.getConnections((_, open) => say(`${open} connections open; `));
    else say("");
  }, SLOW_CLOSE_MS);
  try {
    await run();
  } finally {
    clearTimeout(timer);
  }
}

export interface TestTenant {
  orgId: string;
  webhookSecret: string;
  clientId: string;
  clientSecret: string;
  iframeKey: string;
}

/** An organization with one data API client and one iframe key. */
export async function createTenant({ db, digester }: Services, name = "Test Mutual"): Promise<TestTenant> {
  const org = await createOrganization(db, name);
  const client = await createApiClient(db, digester, org.org_id);
  const key = await createIframeKey(db, digester, org.org_id);
  return {
    orgId: org.org_id,
    webhookSecret: org.webhook_secret,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    iframeKey: key.api_key,
  };
}

/** The JSON body of a valid token request for `tenant`. */
export function tokenRequestBody(test: TestApp, tenant: TestTenant): Record<string, string> {
  return {
    client_id: tenant.clientId,
    client_secret: tenant.clientSecret,
    audience: test.config.apiAudience,
    grant_type: "client_credentials",
  };
}

/** A bearer token for `tenant`, through the token endpoint. */
export async function accessTokenFor(test: TestApp, tenant: TestTenant): Promise<string> {
  const response = await test.app.inject({
    method: "POST",
    url: "/oauth/token",
    payload: tokenRequestBody(test, tenant),
  });
  if (response.statusCode !== 200) throw new Error(`token request failed: ${response.body}`);
  return response.json().access_token;
}

/** A bearer token for `tenant` from a service listening at `url` (e.g. `startServer`'s), over real HTTP. */
export async function accessTokenOver(url: string, audience: string, tenant: TestTenant): Promise<string> {
  const response = await fetch(`${url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: tenant.clientId,
      client_secret: tenant.clientSecret,
      audience,
    }),
  });
  if (response.status !== 200) throw new Error(`token request failed: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

/** A port nobody listens on right now, on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
