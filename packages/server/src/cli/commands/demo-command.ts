import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Config, loadConfig } from "../../config/config.js";
import { DEMO_LOCATION } from "../../geo/demo/index.js";
import { importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import type { Services } from "../../services.js";
import { createApiClient, findActiveApiClient } from "../../tenancy/api-clients.js";
import { createIframeKey, verifyIframeKey } from "../../tenancy/iframe-keys.js";
import {
  createOrganization,
  findOrganization,
  findOrganizationByName,
  findWebhookSecret,
} from "../../tenancy/organizations.js";
import type { CliIo } from "../io.js";
import { startServer, stopOnSignals } from "../server.js";

export const DEMO_ORG_NAME = "Lotline Demo Insurance (generated demo data)";

/** The demo organization's credentials, kept beside the database so a restarted demo prints the same ones. */
export interface DemoCredentials {
  org_id: string;
  webhook_secret: string;
  client_id: string;
  client_secret: string;
  iframe_api_key: string;
}

/** `lotline demo`: migrate, make sure the demo organization exists, print its credentials, and serve. */
export async function demo(io: CliIo): Promise<void> {
  // The banner below is the point of the demo; request logs stay quiet unless asked for.
  const config = loadConfig({ LOTLINE_LOG_LEVEL: "warn", ...io.env });
  const server = await startServer(config);
  if (await importDemoNeighbourhood(server.services.database)) io.stdout("Loaded the generated demo neighbourhood.\n");
  const credentials = await ensureDemoOrganization(server.services, credentialsFile(config));
  const example = await server.services.db
    .selectFrom("addresses")
    .select(["number", "street"])
    .where("number", "is not", null)
    .orderBy("address_id")
    .executeTakeFirst();
  const query = example ? `${example.number} ${example.street.split(" ").slice(0, 2).join(" ")}`.toLowerCase() : "1";
  io.stdout(describeDemo(config, credentials, query));
  stopOnSignals(server);
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

function describeDemo(config: Config, c: DemoCredentials, addressQuery: string): string {
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

Press Ctrl+C to stop.
`;
}
