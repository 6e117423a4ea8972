import { PRODUCT_NAMES } from "@lotline/contract/products";
import { type ColumnDefinitionBuilder, type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../database.js";
import { createTableWithId } from "./create-table-with-id.js";

/**
 * Orders and what they drive: product matrices, property records, idempotency keys, the durable job queue and
 * webhook events with every delivery attempt.
 */
export function orders(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const id = (table: string, column: string) => createTableWithId(db, dialect, table, column);
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references("organizations.org_id").onDelete("cascade");

      await db.schema
        .createTable("product_matrices")
        .addColumn("product_matrix_id", "text", (c) => c.primaryKey())
        .addColumn("org_id", "text", org)
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("products", "text", (c) => c.notNull())
        .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("product_matrices_name", ["org_id", "name"])
        .execute();
      // Organizations made before orders existed get the default matrix new ones start with.
      await sql`insert into product_matrices (product_matrix_id, org_id, name, products, is_default, created_at)
        select 'pm_' || org_id, org_id, 'All products', ${JSON.stringify(PRODUCT_NAMES)}, 1, created_at
        from organizations`.execute(db);

      await id("properties", "property_id")
        .addColumn("org_id", "text", org)
        .addColumn("address", "text")
        .addColumn("lat", "double precision")
        .addColumn("lon", "double precision")
        .addColumn("parcel_id", "integer", (c) => c.references("parcels.parcel_id").onDelete("set null"))
        .addColumn("external_id", "text")
        .addColumn("secondary_external_id", "text")
        .addColumn("insured_name", "text")
        .addColumn("renewal_date", "text")
        .addColumn("premium_amount", "double precision")
        .addColumn("custom_fields", "text", (c) => c.notNull().defaultTo("{}"))
        .addColumn("policy_buildings", "text", (c) => c.notNull().defaultTo("[]"))
        .addColumn("record", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("properties_by_external_id")
        .on("properties")
        .columns(["org_id", "external_id"])
        .execute();

      await db.schema
        .createTable("orders")
        .addColumn("order_id", "text", (c) => c.primaryKey())
        .addColumn("org_id", "text", org)
        .addColumn("property_id", "integer", (c) =>
          c.notNull().references("properties.property_id").onDelete("cascade"),
        )
        .addColumn("product_matrix_id", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("reason", "text")
        .addColumn("request", "text", (c) => c.notNull())
        .addColumn("callback_url", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("completed_at", "bigint")
        .execute();
      await db.schema.createIndex("orders_by_org").on("orders").columns(["org_id", "created_at", "order_id"]).execute();
      await db.schema.createIndex("orders_by_property").on("orders").column("property_id").execute();

      await db.schema
        .createTable("idempotency_keys")
        .addColumn("org_id", "text", org)
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("request_hash", "text", (c) => c.notNull())
        .addColumn("status_code", "integer")
        .addColumn("response", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("idempotency_keys_pk", ["org_id", "key"])
        .execute();

      await id("jobs", "job_id")
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("run_at", "bigint", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("lease_until", "bigint")
        .addColumn("last_error", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("finished_at", "bigint")
        .execute();
      await db.schema.createIndex("jobs_due").on("jobs").columns(["status", "run_at"]).execute();

      await db.schema
        .createTable("webhook_events")
        .addColumn("event_id", "text", (c) => c.primaryKey())
        .addColumn("org_id", "text", org)
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("delivered_at", "bigint")
        .execute();
      await db.schema
        .createIndex("webhook_events_by_org")
        .on("webhook_events")
        .columns(["org_id", "created_at"])
        .execute();

      await id("webhook_attempts", "attempt_id")
        .addColumn("event_id", "text", (c) => c.notNull().references("webhook_events.event_id").onDelete("cascade"))
        .addColumn("attempted_at", "bigint", (c) => c.notNull())
        .addColumn("duration_ms", "integer", (c) => c.notNull())
        .addColumn("status_code", "integer")
        .addColumn("error", "text")
        .addColumn("response_excerpt", "text")
        .execute();
      await db.schema.createIndex("webhook_attempts_by_event").on("webhook_attempts").column("event_id").execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        "webhook_attempts",
        "webhook_events",
        "jobs",
        "idempotency_keys",
        "orders",
        "properties",
        "product_matrices",
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
