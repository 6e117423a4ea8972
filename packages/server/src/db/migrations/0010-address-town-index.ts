import type { Kysely, Migration } from "kysely";

/**
 * The street index also holds the town: on a state's file the same street and number recur in every town, and an
 * import checking a batch for addresses it already holds (`geo/import/same-address.ts`) should find the one row of
 * its town among them by a seek, not read them all. Lookups by street and number keep using its first columns.
 */
export const addressTownIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex("addresses_by_street").execute();
    await db.schema
      .createIndex("addresses_by_street")
      .on("addresses")
      .columns(["street", "number_low", "city"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("addresses_by_street").execute();
    await db.schema.createIndex("addresses_by_street").on("addresses").columns(["street", "number_low"]).execute();
  },
};
