import type { Kysely, Migration } from "kysely";

/**
 * Job priority, lower first: 0 for the work someone is waiting for (an order placed alone, a webhook), more for
 * bulk work, so that a 100,000-row batch never holds up a single order. The claim index follows the claim's order.
 */
export const jobPriority: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("jobs")
      .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.dropIndex("jobs_due").execute();
    await db.schema.createIndex("jobs_claim").on("jobs").columns(["status", "priority", "run_at", "job_id"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("jobs_claim").execute();
    await db.schema.createIndex("jobs_due").on("jobs").columns(["status", "run_at"]).execute();
    await db.schema.alterTable("jobs").dropColumn("priority").execute();
  },
};
