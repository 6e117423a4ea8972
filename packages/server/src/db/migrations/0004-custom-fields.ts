import type { Kysely, Migration } from "kysely";

/** The policy fields an organization defines for its orders (`custom_fields`), in the order its forms show them. */
export const customFields: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("custom_fields")
      .addColumn("org_id", "text", (c) => c.notNull().references("organizations.org_id").onDelete("cascade"))
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("required", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("custom_fields_pk", ["org_id", "key"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("custom_fields").execute();
  },
};
