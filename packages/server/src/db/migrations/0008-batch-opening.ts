import { type Kysely, type Migration, sql } from "kysely";

/**
 * How far a batch's orders have had their jobs enqueued, in input rows: a batch opens a thousand rows a
 * transaction after its intake (`batches/open-batch-job.ts`) instead of 100,000 jobs in one statement that held
 * the database and the event loop for seconds. Batches opened before this were opened whole.
 */
export const batchOpening: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("order_batches")
      .addColumn("opened_rows", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update order_batches set opened_rows = rows where status <> 'intake'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("order_batches").dropColumn("opened_rows").execute();
  },
};
