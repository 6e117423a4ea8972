import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";

/** Tenancy, credentials, signing keys and token issuance counts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("instance_settings")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  await db
    .insertInto("instance_settings" as never)
    .values({ name: "secret_digest_key", value: randomBytes(32).toString("base64url") } as never)
    .execute();

  await db.schema
    .createTable("organizations")
    .addColumn("org_id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("webhook_secret", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("api_clients")
    .addColumn("client_id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "text", (c) => c.notNull().references("organizations.org_id").onDelete("cascade"))
    .addColumn("secret_digest", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("api_clients_org").on("api_clients").column("org_id").execute();

  await db.schema
    .createTable("iframe_keys")
    .addColumn("key_id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "text", (c) => c.notNull().references("organizations.org_id").onDelete("cascade"))
    .addColumn("key_digest", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("iframe_keys_org").on("iframe_keys").column("org_id").execute();

  await db.schema
    .createTable("registrations")
    .addColumn("org_id", "text", (c) => c.notNull().references("organizations.org_id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("registrations_pk", ["org_id", "kind", "value"])
    .execute();

  await db.schema
    .createTable("signing_keys")
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("algorithm", "text", (c) => c.notNull())
    .addColumn("public_jwk", "text", (c) => c.notNull())
    .addColumn("private_pkcs8", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("retired_at", "bigint")
    .execute();

  await db.schema
    .createTable("token_issuances")
    .addColumn("client_id", "text", (c) => c.notNull().references("api_clients.client_id").onDelete("cascade"))
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("token_issuances_pk", ["client_id", "period", "window_start"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "token_issuances",
    "signing_keys",
    "registrations",
    "iframe_keys",
    "api_clients",
    "organizations",
    "instance_settings",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
