import { createHash } from "node:crypto";
import { MAX_JSON_DEPTH } from "@lotline/contract/limits";
import type { Kysely, Transaction } from "kysely";
import type { Schema } from "../db/schema.js";
import { DomainError, InvalidInputError } from "../errors.js";

/** How long a key is remembered; a key reused after this is a new request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;
/** A key still marked running after this belongs to a request that died before committing anything. */
const ABANDONED_AFTER_MS = 30_000;

/** The same key is still being answered by another request. */
export class IdempotencyConflictError extends DomainError {}

export type Replay = { replayed: true; statusCode: number; body: unknown };

/** A stable fingerprint of a request body: key order does not matter. */
export function requestHash(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("base64url");
}

/**
 * Claims `key` for this request: 409 while the first request with it is still running; then a replay of the stored
 * response when the same key came with the same body, 422 when it came with a different body. Otherwise the key is
 * taken, and the caller must {@link completeIdempotencyKey} in the same transaction as its change, or
 * {@link releaseIdempotencyKey} when it fails. Keys are scoped per organization and kept 24 hours.
 */
export async function claimIdempotencyKey(
  db: Kysely<Schema>,
  orgId: string,
  key: string,
  hash: string,
  now = Date.now(),
): Promise<Replay | undefined> {
  const inserted = await db
    .insertInto("idempotency_keys")
    .values({ org_id: orgId, key, request_hash: hash, created_at: now, expires_at: now + IDEMPOTENCY_KEY_TTL_MS })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return undefined;

  const existing = await db
    .selectFrom("idempotency_keys")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("key", "=", key)
    .executeTakeFirstOrThrow();
  const stale =
    existing.expires_at <= now || (existing.status_code === null && now - existing.created_at > ABANDONED_AFTER_MS);
  if (stale) {
    const retaken = await db
      .updateTable("idempotency_keys")
      .set({
        request_hash: hash,
        status_code: null,
        response: null,
        created_at: now,
        expires_at: now + IDEMPOTENCY_KEY_TTL_MS,
      })
      .where("org_id", "=", orgId)
      .where("key", "=", key)
      .where("created_at", "=", existing.created_at)
      .executeTakeFirst();
    if (retaken.numUpdatedRows === 1n) return undefined;
    throw new IdempotencyConflictError("idempotency_key_in_use", "a request with this Idempotency-Key is running");
  }
  // Running first: the body of a request still running may not be known yet (a CSV batch is hashed as it
  // streams), so a retry of it must hear "running" (409), never "different body" (422).
  if (existing.status_code === null || existing.response === null) {
    throw new IdempotencyConflictError(
      "idempotency_key_in_use",
      "a request with this Idempotency-Key is still running",
    );
  }
  if (existing.request_hash !== hash) {
    throw new InvalidInputError(
      "idempotency_key_reused",
      "this Idempotency-Key was used with a different request body; use a new key for a new request",
    );
  }
  return { replayed: true, statusCode: existing.status_code, body: JSON.parse(existing.response) };
}

export async function completeIdempotencyKey(
  trx: Transaction<Schema>,
  orgId: string,
  key: string,
  statusCode: number,
  body: unknown,
): Promise<void> {
  await trx
    .updateTable("idempotency_keys")
    .set({ status_code: statusCode, response: JSON.stringify(body) })
    .where("org_id", "=", orgId)
    .where("key", "=", key)
    .execute();
}

/** Frees a key whose request failed without changing anything, so the client may retry with it. */
export async function releaseIdempotencyKey(db: Kysely<Schema>, orgId: string, key: string): Promise<void> {
  await db
    .deleteFrom("idempotency_keys")
    .where("org_id", "=", orgId)
    .where("key", "=", key)
    .where("status_code", "is", null)
    .execute();
}

/**
 * JSON with members in code-point order. Its recursion is bounded: requests deeper than MAX_JSON_DEPTH are refused at
 * the edge, and this refuses them again rather than trust every caller to have checked.
 */
function canonicalJson(value: unknown, depth = 0): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (depth >= MAX_JSON_DEPTH) {
    throw new InvalidInputError("invalid_request", `the request nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, entry]) => entry !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonicalJson(entry, depth + 1)}`).join(",")}}`;
}
