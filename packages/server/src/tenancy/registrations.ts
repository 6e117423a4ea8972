import type { Kysely } from "kysely";
import type { RegistrationKind, Schema } from "../db/schema.js";
import { NotFoundError } from "../errors.js";
import { requireOrganization } from "./organizations.js";

/**
 * A list of values an organization registers with the service beforehand — the host origins allowed to frame
 * its pages, the URL prefixes its callbacks may go to — so nothing reaches a place the organization did not name.
 */
export interface Registry {
  kind: RegistrationKind;
  /** The stored form of an input; throws an InvalidInputError saying what is wrong with it. */
  normalize(input: string): string;
  /** The error code for removing a value that is not registered. */
  notFoundCode: string;
}

/** Registers a value (once: registering it again changes nothing) and returns its normalized form. */
export async function register(db: Kysely<Schema>, registry: Registry, orgId: string, input: string): Promise<string> {
  await requireOrganization(db, orgId);
  const value = registry.normalize(input);
  await db
    .insertInto("registrations")
    .values({ org_id: orgId, kind: registry.kind, value, created_at: Date.now() })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return value;
}

/**
 * The organization's registered values, sorted. The organization is looked up beside them, not before: placing an
 * order reads its callback prefixes, and on PostgreSQL that is one round trip instead of two.
 */
export async function listRegistered(db: Kysely<Schema>, registry: Registry, orgId: string): Promise<string[]> {
  const [, rows] = await Promise.all([
    requireOrganization(db, orgId),
    db
      .selectFrom("registrations")
      .select("value")
      .where("org_id", "=", orgId)
      .where("kind", "=", registry.kind)
      .orderBy("value")
      .execute(),
  ]);
  return rows.map((row) => row.value);
}

/** Removes a registered value; throws {@link NotFoundError} when it is not registered. */
export async function unregister(
  db: Kysely<Schema>,
  registry: Registry,
  orgId: string,
  input: string,
): Promise<string> {
  await requireOrganization(db, orgId);
  const value = registry.normalize(input);
  const result = await db
    .deleteFrom("registrations")
    .where("org_id", "=", orgId)
    .where("kind", "=", registry.kind)
    .where("value", "=", value)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new NotFoundError(registry.notFoundCode, `${value} is not registered`);
  return value;
}
