import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { NotFoundError } from "../errors.js";
import { requireOrganization } from "./organizations.js";
import { newId, newSecret, type SecretDigester } from "./secrets.js";

export interface CreatedIframeKey {
  key_id: string;
  /** The password half of the iframe sign-in's Basic credentials; shown once. */
  api_key: string;
}

export async function createIframeKey(
  db: Kysely<Schema>,
  digester: SecretDigester,
  orgId: string,
): Promise<CreatedIframeKey> {
  await requireOrganization(db, orgId);
  const key = { key_id: newId("ik"), api_key: newSecret() };
  await db
    .insertInto("iframe_keys")
    .values({ key_id: key.key_id, org_id: orgId, key_digest: digester.digest(key.api_key), created_at: Date.now() })
    .execute();
  return key;
}

/**
 * The id of the organization's live iframe key that `apiKey` is, if any. Every key is compared (no early exit) and
 * an unknown organization is compared against a decoy, so the answer takes the same time either way.
 */
export async function findIframeKey(
  db: Kysely<Schema>,
  digester: SecretDigester,
  orgId: string,
  apiKey: string,
): Promise<string | undefined> {
  const keys = await db
    .selectFrom("iframe_keys")
    .select(["key_id", "key_digest"])
    .where("org_id", "=", orgId)
    .where("revoked_at", "is", null)
    .execute();
  if (keys.length === 0) {
    digester.matches(apiKey, undefined);
    return undefined;
  }
  let matched: string | undefined;
  for (const key of keys) if (digester.matches(apiKey, key.key_digest)) matched = key.key_id;
  return matched;
}

/** Whether `apiKey` is one of the organization's live iframe keys; see {@link findIframeKey}. */
export async function verifyIframeKey(
  db: Kysely<Schema>,
  digester: SecretDigester,
  orgId: string,
  apiKey: string,
): Promise<boolean> {
  return (await findIframeKey(db, digester, orgId, apiKey)) !== undefined;
}

/** An iframe key as an operator sees it: never the key, which is not kept. Times are ISO 8601 UTC. */
export interface IframeKeySummary {
  key_id: string;
  created_at: string;
  revoked_at: string | null;
}

/** The organization's iframe keys, oldest first, revoked ones included. */
export async function listIframeKeys(db: Kysely<Schema>, orgId: string): Promise<IframeKeySummary[]> {
  await requireOrganization(db, orgId);
  const rows = await db
    .selectFrom("iframe_keys")
    .select(["key_id", "created_at", "revoked_at"])
    .where("org_id", "=", orgId)
    .orderBy("created_at")
    .orderBy("key_id")
    .execute();
  return rows.map((row) => ({
    key_id: row.key_id,
    created_at: isoTime(row.created_at),
    revoked_at: row.revoked_at === null ? null : isoTime(row.revoked_at),
  }));
}

export interface RevokedIframeKey {
  key_id: string;
  org_id: string;
  /** ISO 8601 UTC. */
  revoked_at: string;
}

/**
 * Revokes an iframe key: the sign-in refuses it at once, and the pages and the page API refuse the sessions signed
 * in with it within their reload interval. Revoking twice keeps the first time. Throws {@link NotFoundError} for
 * an unknown key.
 */
export async function revokeIframeKey(db: Kysely<Schema>, keyId: string): Promise<RevokedIframeKey> {
  await db
    .updateTable("iframe_keys")
    .set({ revoked_at: Date.now() })
    .where("key_id", "=", keyId)
    .where("revoked_at", "is", null)
    .execute();
  const row = await db
    .selectFrom("iframe_keys")
    .select(["key_id", "org_id", "revoked_at"])
    .where("key_id", "=", keyId)
    .executeTakeFirst();
  if (!row || row.revoked_at === null) throw new NotFoundError("iframe_key_not_found", `no iframe key ${keyId}`);
  return { key_id: row.key_id, org_id: row.org_id, revoked_at: isoTime(row.revoked_at) };
}

/** The ids of the iframe keys revoked at or after `since` (epoch milliseconds). */
export async function listIframeKeysRevokedSince(db: Kysely<Schema>, since: number): Promise<string[]> {
  const rows = await db.selectFrom("iframe_keys").select("key_id").where("revoked_at", ">=", since).execute();
  return rows.map((row) => row.key_id);
}

function isoTime(epochMs: number): string {
  return new Date(Number(epochMs)).toISOString();
}
