import type { Kysely, Migration } from "kysely";

/**
 * Bulk orders: a batch, one compact row per input row (the order it became, or why it was refused), and the batch
 * an order belongs to. A batch stays `intake` — invisible — until its whole intake committed; `pending` counts its
 * orders not yet settled, so the order that settles last knows it finished the batch.
 */
export const orderBatches: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("order_batches")
      .addColumn("batch_id", "text", (c) => c.primaryKey())
      .addColumn("org_id", "text", (c) => c.notNull().references("organizations.org_id").onDelete("cascade"))
      .addColumn("name", "text")
      .addColumn("callback_url", "text")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("rows", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("accepted", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("rejected", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("pending", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("ignored_columns", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("completed_at", "bigint")
      .execute();
    await db.schema
      .createIndex("order_batches_by_org")
      .on("order_batches")
      .columns(["org_id", "created_at", "batch_id"])
      .execute();
    await db.schema
      .createTable("order_batch_rows")
      .addColumn("batch_id", "text", (c) => c.notNull().references("order_batches.batch_id").onDelete("cascade"))
      .addColumn("row_number", "integer", (c) => c.notNull())
      .addColumn("order_id", "text")
      .addColumn("reason", "text")
      .addColumn("field", "text")
      .addPrimaryKeyConstraint("order_batch_rows_pkey", ["batch_id", "row_number"])
      .execute();
    await db.schema.alterTable("orders").addColumn("batch_id", "text").execute();
    await db.schema.createIndex("orders_by_batch").on("orders").column("batch_id").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("orders_by_batch").execute();
    await db.schema.alterTable("orders").dropColumn("batch_id").execute();
    await db.schema.dropTable("order_batch_rows").execute();
    await db.schema.dropTable("order_batches").execute();
  },
};
