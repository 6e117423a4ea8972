import type { Kysely, Migration } from "kysely";

/**
 * The index of parcels by their own id alone goes: the unique index on (dataset_id, source_id) serves every lookup
 * by id, an address import's join across the namespace's datasets included (both databases seek it with the
 * datasets as its first column). At a state's size it took 18 MB and its share of every parcel written.
 */
export const parcelsWithoutSourceIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex("parcels_by_source_id").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.createIndex("parcels_by_source_id").on("parcels").column("source_id").execute();
  },
};
