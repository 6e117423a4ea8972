import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Config, ConfigError, loadConfig } from "../../config/config.js";
import { DomainError } from "../../errors.js";
import { DEMO_LOCATION } from "../../geo/demo/index.js";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import { ADDRESS_PART_COLUMNS, addressLine } from "../../geo/store/address-line.js";
import type { Services } from "../../services.js";
import { createApiClient, findActiveApiClient } from "../../tenancy/api-clients.js";
import { addCallbackPrefix } from "../../tenancy/callback-prefixes.js";
import { addCustomField, type CustomFieldInput, listCustomFields } from "../../tenancy/custom-fields.js";
import { addHostOrigin } from "../../tenancy/host-origins.js";
import { createIframeKey, verifyIframeKey } from "../../tenancy/iframe-keys.js";
import {
  createOrganization,
  findOrganization,
  findOrganizationByName,
  findWebhookSecret,
} from "../../tenancy/organizations.js";
import type { CliIo } from "../io.js";
import { type RunningServer, startServer } from "../server.js";

export const DEMO_ORG_NAME = "Lotline Demo Insurance (generated demo data)";

/** The policy fields the demo organization defines, so the new-order page has some to show. */
export const DEMO_CUSTOM_FIELDS: readonly CustomFieldInput[] = [
  { key: "year_built", label: "Year built", type: "number", required: false },
  { key: "broker", label: "Broker", type: "text", required: false },
];

/** The demo organization's credentials, kept beside the database so a restarted demo prints the same ones. */
export interface DemoCredentials {
  org_id: string;
  webhook_secret: string;
  client_id: string;
  client_secret: string;
  iframe_api_key: string;
}

/**
 * The part of `@lotline/example-core-system` the demo uses. The service does not depend on its example: the
 * demo loads it at run time when it is there (it is, in this repository's workspace), and serves without it
 * otherwise, so neither the server's build nor an install of the server needs the example.
 */
interface CoreSystemModule {
  startCoreSystem(options: {
    port: number;
    host?: string;
    lotlineUrl: string;
    orgId: string;
    iframeApiKey: string;
    webhookSecret: string;
  }): Promise<{ url: string; close(): Promise<void> }>;
}

const CORE_SYSTEM_PACKAGE = "@lotline/example-core-system";

export interface RunningDemo {
  server: RunningServer;
  credentials: DemoCredentials;
  /** The demo core system's address, when its package is installed. */
  coreSystemUrl: string | undefined;
  /** Stops the core system, then the server. */
  stop(): Promise<void>;
}

export interface DemoOptions {
  /** Where the credentials are kept; beside a SQLite database, else `data/demo-credentials.json`. */
  credentialsFile?: string;
}

/**
 * `lotline demo`: migrate, make sure the demo organization exists, serve, start the demo core system beside it,
 * print how to use both, and stop both on SIGTERM or SIGINT.
 */
export async function demo(io: CliIo): Promise<void> {
  const running = await startDemo(io);
  stopDemoOnSignals(running);
}

/**
 * Everything `lotline demo` starts: the server (webhooks to 127.0.0.1 allowed unless the operator set
 * `LOTLINE_WEBHOOK_ALLOW_HOSTS`), the demo neighbourhood and organization with two custom fields, and the demo
 * core system on `PORT`+1 (`LOTLINE_DEMO_HOST_PORT` overrides), registered as a host origin and callback prefix
 * of the demo organization. Prints the banner. Running it again on the same database creates nothing new.
 */
export async function startDemo(io: CliIo, options: DemoOptions = {}): Promise<RunningDemo> {
  // The banner below is the point of the demo; request logs stay quiet unless asked for.
  const config = loadConfig({ LOTLINE_LOG_LEVEL: "warn", LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1", ...io.env });
  const hostPort = demoHostPort(io.env, config.port);
  const server = await startServer(config);
  let closeCoreSystem = async () => {};
  try {
    const { services } = server;
    if (await importDemoNeighbourhood(services.database)) io.stdout("Loaded the generated demo neighbourhood.\n");
    const credentials = await ensureDemoOrganization(services, options.credentialsFile ?? credentialsFile(config));
    await ensureDemoCustomFields(services, credentials.org_id);
    const coreSystem = await startDemoCoreSystem(config, credentials, hostPort);
    if (coreSystem) {
      closeCoreSystem = () => coreSystem.close();
      await addHostOrigin(services.db, credentials.org_id, coreSystem.url);
      await addCallbackPrefix(services.db, credentials.org_id, `${coreSystem.url}/webhooks`);
    }
    io.stdout(
      describeDemo(config, credentials, { ...(await exampleAddress(services)), coreSystemUrl: coreSystem?.url }),
    );
    return {
      server,
      credentials,
      coreSystemUrl: coreSystem?.url,
      async stop() {
        await closeCoreSystem();
        await server.stop();
      },
    };
  } catch (error) {
    await closeCoreSystem();
    await server.stop();
    throw error;
  }
}

/** A demo address to show in the examples: a search query and the whole address. */
async function exampleAddress({ db }: Services): Promise<Omit<DemoExamples, "coreSystemUrl">> {
  const example = await db
    .selectFrom("addresses")
    .select(ADDRESS_PART_COLUMNS)
    .where("number", "is not", null)
    .orderBy("address_id")
    .executeTakeFirst();
  if (!example) return { addressQuery: "1", exampleAddress: undefined };
  const addressQuery = `${example.number} ${example.street.split(" ").slice(0, 2).join(" ")}`.toLowerCase();
  return { addressQuery, exampleAddress: addressLine(example) };
}

/** Stops the demo gracefully on SIGTERM or SIGINT, then exits. */
function stopDemoOnSignals(running: RunningDemo): void {
  const stop = (signal: string) => {
    running.server.app.log.info({ signal }, "shutting down");
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        running.server.app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** `LOTLINE_DEMO_HOST_PORT`, else the port after Lotline's (any free port when Lotline's is chosen freely). */
function demoHostPort(env: CliIo["env"], lotlinePort: number): number {
  const raw = env.LOTLINE_DEMO_HOST_PORT?.trim();
  if (raw) {
    const port = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(port >= 0 && port <= 65_535)) {
      throw new ConfigError("LOTLINE_DEMO_HOST_PORT", `expected a port from 0 to 65535, got "${raw}"`);
    }
    return port;
  }
  return lotlinePort === 0 || lotlinePort === 65_535 ? 0 : lotlinePort + 1;
}

/** Starts the demo core system on 127.0.0.1, or answers undefined when its package is not installed. */
async function startDemoCoreSystem(
  config: Config,
  credentials: DemoCredentials,
  port: number,
): Promise<{ url: string; close(): Promise<void> } | undefined> {
  let module: CoreSystemModule;
  try {
    // A specifier in a variable: TypeScript does not resolve it, so the server builds without the example.
    const specifier: string = CORE_SYSTEM_PACKAGE;
    module = (await import(specifier)) as CoreSystemModule;
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND") return undefined;
    throw error;
  }
  try {
    return await module.startCoreSystem({
      port,
      host: "127.0.0.1",
      lotlineUrl: config.publicUrl,
      orgId: credentials.org_id,
      iframeApiKey: credentials.iframe_api_key,
      webhookSecret: credentials.webhook_secret,
    });
  } catch (error) {
    if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
    throw new ConfigError(
      "LOTLINE_DEMO_HOST_PORT",
      `port ${port} is in use, so the demo core system cannot start there; choose another`,
    );
  }
}

/** Defines the demo's custom fields the organization lacks. */
async function ensureDemoCustomFields({ db }: Services, orgId: string): Promise<void> {
  const defined = new Set((await listCustomFields(db, orgId)).map((field) => field.key));
  for (const field of DEMO_CUSTOM_FIELDS) {
    if (defined.has(field.key)) continue;
    try {
      await addCustomField(db, orgId, field);
    } catch (error) {
      // Another demo process on the same database defined it a moment ago: that is all we wanted.
      if (!(error instanceof DomainError && error.code === "custom_field_exists")) throw error;
    }
  }
}

/**
 * Returns the saved demo credentials while they still work; otherwise creates what is missing (an organization,
 * a client, an iframe key) and saves the result. Running it twice creates nothing new.
 */
export async function ensureDemoOrganization(services: Services, file: string): Promise<DemoCredentials> {
  const saved = readSaved(file);
  if (saved && (await stillValid(services, saved))) return saved;

  const { db, digester } = services;
  // The saved organization, else the one an earlier run made (its credentials file may have been deleted).
  const existing =
    (saved && (await findOrganization(db, saved.org_id))) || (await findOrganizationByName(db, DEMO_ORG_NAME));
  const webhookSecret = existing && (await findWebhookSecret(db, existing.org_id));
  const org =
    existing && webhookSecret
      ? { org_id: existing.org_id, webhook_secret: webhookSecret }
      : await createOrganization(db, DEMO_ORG_NAME);
  const client = await createApiClient(db, digester, org.org_id);
  const key = await createIframeKey(db, digester, org.org_id);
  const credentials: DemoCredentials = {
    ...org,
    client_id: client.client_id,
    client_secret: client.client_secret,
    iframe_api_key: key.api_key,
  };
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}

function credentialsFile(config: Config): string {
  const sqlitePath = config.databaseUrl.match(/^sqlite:(.+)$/)?.[1];
  const folder = sqlitePath && sqlitePath !== ":memory:" ? dirname(sqlitePath) : "data";
  return join(folder, "demo-credentials.json");
}

function readSaved(file: string): DemoCredentials | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as DemoCredentials;
  } catch {
    return undefined;
  }
}

async function stillValid({ db, digester }: Services, saved: DemoCredentials): Promise<boolean> {
  const client = await findActiveApiClient(db, saved.client_id);
  return (
    client?.org_id === saved.org_id &&
    digester.matches(saved.client_secret, client.secret_digest) &&
    (await verifyIframeKey(db, digester, saved.org_id, saved.iframe_api_key))
  );
}

interface DemoExamples {
  /** What to search for in the curl example. */
  addressQuery: string;
  coreSystemUrl: string | undefined;
  /** A whole demo address, to give the core system's pages. */
  exampleAddress: string | undefined;
}

function describeDemo(
  config: Config,
  c: DemoCredentials,
  { addressQuery, coreSystemUrl, exampleAddress }: DemoExamples,
): string {
  const base = config.publicUrl;
  const body = JSON.stringify({
    client_id: c.client_id,
    client_secret: c.client_secret,
    audience: config.apiAudience,
    grant_type: "client_credentials",
  });
  return `
Lotline is running at ${base}   (database: ${config.databaseUrl})

Demo organization: ${DEMO_ORG_NAME}
  org_id          ${c.org_id}
  client_id       ${c.client_id}
  client_secret   ${c.client_secret}
  iframe api key  ${c.iframe_api_key}
  webhook secret  ${c.webhook_secret}

Get a data API token (valid 24 hours; reuse it):
  curl -s -X POST ${base}/oauth/token -H 'content-type: application/json' -d '${body}'

Then call the API with it:
  curl -s ${base}/v1/me -H "authorization: Bearer $TOKEN"
  curl -s '${base}/v1/addresses?q=${encodeURIComponent(addressQuery)}' -H "authorization: Bearer $TOKEN"

Property data: a generated neighbourhood (not real data) around ${DEMO_LOCATION.city}, ${DEMO_LOCATION.stateCode} (${DEMO_LOCATION.county}).

Get an iframe token for the embeddable pages:
  curl -s -X POST ${base}/auth/signin/integration -u '${c.org_id}:${c.iframe_api_key}'
${describeCoreSystem(coreSystemUrl, exampleAddress)}
Press Ctrl+C to stop.
`;
}

function describeCoreSystem(url: string | undefined, exampleAddress: string | undefined): string {
  if (!url) {
    return `
The demo core system (${CORE_SYSTEM_PACKAGE}) is not installed or not built, so no host page runs.
`;
  }
  const address = exampleAddress ? `, e.g.\n  ${exampleAddress}\n` : " ";
  return `
The demo core system, a stand-in insurer host page on its own origin, is at
  ${url}
Open it in a browser, pick a page, give an address${address}and press Open. Its origin is registered to frame
the pages, and ${url}/webhooks receives and verifies the organization's webhooks.
`;
}
