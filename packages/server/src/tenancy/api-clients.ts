import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { NotFoundError } from "../errors.js";
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

export interface RevokedApiClient {
  client_id: string;
  /** ISO 8601 UTC. */
  revoked_at: string;
}

/**
 * Revokes a data API client: the token endpoint refuses it at once, and the bearer guard refuses its tokens within
 * its reload interval. Revoking twice keeps the first time. Throws {@link NotFoundError} for an unknown client.
 */
export async function revokeApiClient(db: Kysely<Schema>, clientId: string): Promise<RevokedApiClient> {
  await db
    .updateTable("api_clients")
    .set({ revoked_at: Date.now() })
    .where("client_id", "=", clientId)
    .where("revoked_at", "is", null)
    .execute();
  const row = await db
    .selectFrom("api_clients")
    .select(["client_id", "revoked_at"])
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  if (!row || row.revoked_at === null) throw new NotFoundError("client_not_found", `no client ${clientId}`);
  return { client_id: row.client_id, revoked_at: new Date(Number(row.revoked_at)).toISOString() };
}

/** The ids of the clients revoked at or after `since` (epoch milliseconds). */
export async function listClientsRevokedSince(db: Kysely<Schema>, since: number): Promise<string[]> {
  const rows = await db.selectFrom("api_clients").select("client_id").where("revoked_at", ">=", since).execute();
  return rows.map((row) => row.client_id);
}
