import type { Kysely, Migration } from "kysely";

/**
 * The indexes by parcel also hold what an event's search reads of each row (`events/find-impacts.ts`): a
 * property's organization and whether its lot was drawn, a building's box. A county's event reads them for
 * hundreds of thousands of parcels; from the index alone, no table row is visited. Lookups by parcel keep using
 * their first column.
 */
export const eventSearchIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await replaceIndex(db, "properties_by_parcel", "properties", ["parcel_id", "lot_drawn", "org_id"]);
    await replaceIndex(db, "buildings_by_parcel", "buildings", [
      "parcel_id",
      "min_lon",
      "min_lat",
      "max_lon",
      "max_lat",
    ]);
  },
  async down(db: Kysely<unknown>) {
    await replaceIndex(db, "properties_by_parcel", "properties", ["parcel_id"]);
    await replaceIndex(db, "buildings_by_parcel", "buildings", ["parcel_id"]);
  },
};

async function replaceIndex(db: Kysely<unknown>, name: string, table: string, columns: string[]): Promise<void> {
  await db.schema.dropIndex(name).execute();
  await db.schema.createIndex(name).on(table).columns(columns).execute();
}
