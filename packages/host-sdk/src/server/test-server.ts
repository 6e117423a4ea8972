/**
 * The real Lotline server for this package's tests: the server's own test helpers (a fresh database of the
 * current vitest project, a tenant), optionally listening on loopback with the demo neighbourhood and background
 * workers, as `lotline serve` runs.
 *
 * The server's modules are imported by URL at run time rather than statically: this package's type-check has
 * `rootDir: src`, and a static import would pull the server's sources into its program. The few shapes used here
 * are declared below instead.
 */

/** The tenant the server's `createTenant` makes. */
export interface TestTenant {
  orgId: string;
  webhookSecret: string;
  clientId: string;
  clientSecret: string;
  iframeKey: string;
}

interface ServerTestApp {
  config: { apiAudience: string; iframeTokenTtlSeconds: number };
  services: { database: { db: unknown }; db: unknown; nudgeWorkers: () => void };
  app: { inject(request: { url: string }): Promise<{ statusCode: number; json(): unknown }> };
  url: string;
  close(): Promise<void>;
}

interface JobRunner {
  start(): void;
  nudge(): void;
  stop(options: { timeoutMs: number }): Promise<boolean>;
}

/** A started server with one tenant. */
export interface TestServer {
  /** The public URL: token endpoint, iframe sign-in and data API alike. */
  url: string;
  audience: string;
  iframeTokenTtlSeconds: number;
  tenant: TestTenant;
  /** `GET /v1/openapi.json`, in process. */
  openApiDocument(): Promise<Record<string, unknown>>;
  /** Lets the tenant's orders call back to URLs starting with `prefix`. */
  addCallbackPrefix(prefix: string): Promise<void>;
  /** A formatted address of the generated demo neighbourhood (loaded with `demo: true`). */
  demoAddress(index?: number): Promise<string>;
  close(): Promise<void>;
}

const SERVER_SRC = new URL("../../../server/src/", import.meta.url);

async function load<T>(path: string): Promise<T> {
  return (await import(new URL(path, SERVER_SRC).href)) as T;
}

/**
 * Starts the server. `listen` serves it over loopback HTTP (its public URL is that address); `demo` loads the
 * generated neighbourhood and runs the background workers, with webhooks allowed to 127.0.0.1.
 */
export async function startTestServer(
  options: { listen?: boolean; demo?: boolean; settings?: Record<string, string> } = {},
): Promise<TestServer> {
  const { createTestApp, createTenant } = await load<{
    createTestApp(settings: Record<string, string>, options: { listen: boolean }): Promise<ServerTestApp>;
    createTenant(services: ServerTestApp["services"]): Promise<TestTenant>;
  }>("test/test-app.ts");
  const settings = { ...(options.demo ? { LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" } : {}), ...options.settings };
  const test = await createTestApp(settings, { listen: options.listen ?? false });
  let runner: JobRunner | undefined;
  try {
    if (options.demo) {
      const { importDemoNeighbourhood } = await load<{ importDemoNeighbourhood(database: unknown): Promise<boolean> }>(
        "geo/import/import-demo-neighbourhood.ts",
      );
      await importDemoNeighbourhood(test.services.database);
      const { createJobRunner } = await load<{ createJobRunner(services: unknown): JobRunner }>(
        "workers/background-work.ts",
      );
      const started = createJobRunner(test.services);
      test.services.nudgeWorkers = () => started.nudge();
      started.start();
      runner = started;
    }
    const tenant = await createTenant(test.services);
    return {
      url: test.url,
      audience: test.config.apiAudience,
      iframeTokenTtlSeconds: test.config.iframeTokenTtlSeconds,
      tenant,
      async openApiDocument() {
        const response = await test.app.inject({ url: "/v1/openapi.json" });
        return response.json() as Record<string, unknown>;
      },
      async addCallbackPrefix(prefix) {
        const { addCallbackPrefix } = await load<{
          addCallbackPrefix(db: unknown, orgId: string, prefix: string): Promise<unknown>;
        }>("tenancy/callback-prefixes.ts");
        await addCallbackPrefix(test.services.db, tenant.orgId, prefix);
      },
      async demoAddress(index = 0) {
        const { generateNeighbourhood } = await load<{
          generateNeighbourhood(): {
            addresses: Array<{ number: string; street: string; unit?: string; city: string; state: string }>;
          };
        }>("geo/demo/index.ts");
        const address = generateNeighbourhood().addresses[index];
        if (!address) throw new Error(`the demo neighbourhood has no address ${index}`);
        return `${address.number} ${address.street}${address.unit ? ` UNIT ${address.unit}` : ""}, ${address.city}, ${address.state}`;
      },
      async close() {
        await runner?.stop({ timeoutMs: 5_000 });
        await test.close();
      },
    };
  } catch (error) {
    await runner?.stop({ timeoutMs: 5_000 });
    await test.close();
    throw error;
  }
}
