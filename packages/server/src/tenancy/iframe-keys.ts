import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
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
 * Whether `apiKey` is one of the organization's live iframe keys. Every key is compared (no early exit) and an
 * unknown organization is compared against a decoy, so the answer takes the same time either way.
 */
export async function verifyIframeKey(
  db: Kysely<Schema>,
  digester: SecretDigester,
  orgId: string,
  apiKey: string,
): Promise<boolean> {
  const keys = await db
    .selectFrom("iframe_keys")
    .select("key_digest")
    .where("org_id", "=", orgId)
    .where("revoked_at", "is", null)
    .execute();
  if (keys.length === 0) return digester.matches(apiKey, undefined);
  let matched = false;
  for (const { key_digest } of keys) matched = digester.matches(apiKey, key_digest) || matched;
  return matched;
}
