import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { requireOrganization } from "./organizations.js";
import { newId, newSecret, type SecretDigester } from "./secrets.js";

/** A data API client as the token endpoint needs it. */
export interface ApiClient {
  client_id: string;
  org_id: string;
  secret_digest: string;
}

export interface CreatedApiClient {
  client_id: string;
  /** Shown once; only its digest is kept. */
  client_secret: string;
}

export async function createApiClient(
  db: Kysely<Schema>,
  digester: SecretDigester,
  orgId: string,
): Promise<CreatedApiClient> {
  await requireOrganization(db, orgId);
  const client = { client_id: newId("cl"), client_secret: newSecret() };
  await db
    .insertInto("api_clients")
    .values({
      client_id: client.client_id,
      org_id: orgId,
      secret_digest: digester.digest(client.client_secret),
      created_at: Date.now(),
    })
    .execute();
  return client;
}

/** The client if it exists and is not revoked. */
export async function findActiveApiClient(db: Kysely<Schema>, clientId: string): Promise<ApiClient | undefined> {
  return db
    .selectFrom("api_clients")
    .select(["client_id", "org_id", "secret_digest"])
    .where("client_id", "=", clientId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
}
