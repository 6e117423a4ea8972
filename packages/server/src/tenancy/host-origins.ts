import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { requireOrganization } from "./organizations.js";

/**
 * The origins of host pages allowed to frame an organization's embeddable pages (INTERFACE.md §1: "every
 * endpoint that serves the iframe must be registered"). They become `frame-ancestors` and `postMessage` targets.
 */

/** `https://Core.Example.com:443/` → `https://core.example.com`; anything but a bare origin is refused. */
export function normalizeOrigin(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new InvalidInputError("invalid_origin", `not an absolute URL: "${input}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidInputError("invalid_origin", `an origin is http or https, not ${url.protocol}`);
  }
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    throw new InvalidInputError("invalid_origin", `an origin is scheme, host and port only: "${input}"`);
  }
  return url.origin;
}

export async function addHostOrigin(db: Kysely<Schema>, orgId: string, input: string): Promise<string> {
  await requireOrganization(db, orgId);
  const origin = normalizeOrigin(input);
  await db
    .insertInto("host_origins")
    .values({ org_id: orgId, origin, created_at: Date.now() })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return origin;
}

export async function listHostOrigins(db: Kysely<Schema>, orgId: string): Promise<string[]> {
  await requireOrganization(db, orgId);
  const rows = await db
    .selectFrom("host_origins")
    .select("origin")
    .where("org_id", "=", orgId)
    .orderBy("origin")
    .execute();
  return rows.map((row) => row.origin);
}

export async function removeHostOrigin(db: Kysely<Schema>, orgId: string, input: string): Promise<string> {
  await requireOrganization(db, orgId);
  const origin = normalizeOrigin(input);
  const result = await db
    .deleteFrom("host_origins")
    .where("org_id", "=", orgId)
    .where("origin", "=", origin)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new NotFoundError("origin_not_found", `${origin} is not registered`);
  return origin;
}
