import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { defaultMatrixRow } from "./product-matrices.js";
import { newId } from "./secrets.js";

export interface Organization {
  org_id: string;
  name: string;
  created_at: number;
}

export interface CreatedOrganization {
  org_id: string;
  /** The Standard Webhooks signing secret; shown once. */
  webhook_secret: string;
}

export async function createOrganization(db: Kysely<Schema>, name: string): Promise<CreatedOrganization> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 200) {
    throw new InvalidInputError("invalid_name", "an organization name has 1 to 200 characters");
  }
  const org = { org_id: newId("org"), webhook_secret: `whsec_${randomBytes(32).toString("base64")}` };
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("organizations")
      .values({ ...org, name: trimmed, created_at: now })
      .execute();
    // Every organization can order from the start: its default matrix runs every product.
    await trx.insertInto("product_matrices").values(defaultMatrixRow(org.org_id, now)).execute();
  });
  return org;
}

export async function findOrganization(db: Kysely<Schema>, orgId: string): Promise<Organization | undefined> {
  return db
    .selectFrom("organizations")
    .select(["org_id", "name", "created_at"])
    .where("org_id", "=", orgId)
    .executeTakeFirst();
}

export async function findOrganizationByName(db: Kysely<Schema>, name: string): Promise<Organization | undefined> {
  return db
    .selectFrom("organizations")
    .select(["org_id", "name", "created_at"])
    .where("name", "=", name)
    .orderBy("created_at")
    .executeTakeFirst();
}

/** The organization's Standard Webhooks secret (kept whole: every delivery is signed with it). */
export async function findWebhookSecret(db: Kysely<Schema>, orgId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("organizations")
    .select("webhook_secret")
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  return row?.webhook_secret;
}

/** Throws {@link NotFoundError} unless the organization exists. */
export async function requireOrganization(db: Kysely<Schema>, orgId: string): Promise<Organization> {
  const org = await findOrganization(db, orgId);
  if (!org) throw new NotFoundError("organization_not_found", `no organization ${orgId}`);
  return org;
}
