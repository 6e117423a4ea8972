import type { Kysely, Migration } from "kysely";

/** Where each organization hears of catastrophe events and of changes to the properties it ordered. */
export const monitoring: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("monitoring")
      .addColumn("org_id", "text", (c) => c.primaryKey().references("organizations.org_id").onDelete("cascade"))
      .addColumn("callback_url", "text", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("monitoring").execute();
  },
};
