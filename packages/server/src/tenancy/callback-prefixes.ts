import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { requireOrganization } from "./organizations.js";

/**
 * URL prefixes that an organization's `callback_url`s must start with (DESIGN.md §8), so a webhook can only
 * ever reach a place the organization registered beforehand.
 */

/** Parses and normalizes a prefix: an absolute http(s) URL without credentials or fragment. */
export function normalizeCallbackPrefix(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new InvalidInputError("invalid_callback_prefix", `not an absolute URL: "${input}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidInputError("invalid_callback_prefix", `a callback URL is http or https, not ${url.protocol}`);
  }
  if (url.username || url.password || url.hash) {
    throw new InvalidInputError("invalid_callback_prefix", "a callback prefix carries no credentials or fragment");
  }
  return url.href;
}

export async function addCallbackPrefix(db: Kysely<Schema>, orgId: string, input: string): Promise<string> {
  await requireOrganization(db, orgId);
  const prefix = normalizeCallbackPrefix(input);
  await db
    .insertInto("callback_prefixes")
    .values({ org_id: orgId, prefix, created_at: Date.now() })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return prefix;
}

export async function listCallbackPrefixes(db: Kysely<Schema>, orgId: string): Promise<string[]> {
  await requireOrganization(db, orgId);
  const rows = await db
    .selectFrom("callback_prefixes")
    .select("prefix")
    .where("org_id", "=", orgId)
    .orderBy("prefix")
    .execute();
  return rows.map((row) => row.prefix);
}

export async function removeCallbackPrefix(db: Kysely<Schema>, orgId: string, input: string): Promise<string> {
  await requireOrganization(db, orgId);
  const prefix = normalizeCallbackPrefix(input);
  const result = await db
    .deleteFrom("callback_prefixes")
    .where("org_id", "=", orgId)
    .where("prefix", "=", prefix)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new NotFoundError("callback_prefix_not_found", `${prefix} is not registered`);
  return prefix;
}
