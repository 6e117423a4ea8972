import { type Kysely, type Migration, sql } from "kysely";

/**
 * An address's position is indexed only when it has no parcel. An address with a parcel lies inside it (an import
 * places it there, or gives it the parcel containing its point), so the addresses near a point are found through
 * the parcels' spatial index and the index by parcel (`geo/locate/reverse-locate.ts`). The index of every
 * address's position was a sixth of the addresses' size and of the work of writing them.
 *
 * The index by parcel leaves out the addresses without one: SQLite would otherwise seek it for `parcel_id is null`
 * and read every address without a parcel instead of those near the point.
 */
export const parcellessAddressIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex("addresses_by_lat").execute();
    await db.schema.dropIndex("addresses_by_parcel").execute();
    await db.schema
      .createIndex("addresses_by_parcel")
      .on("addresses")
      .column("parcel_id")
      .where(sql.ref("parcel_id"), "is not", null)
      .execute();
    await db.schema
      .createIndex("addresses_without_parcel")
      .on("addresses")
      .columns(["lat", "lon"])
      .where(sql.ref("parcel_id"), "is", null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("addresses_without_parcel").execute();
    await db.schema.dropIndex("addresses_by_parcel").execute();
    await db.schema.createIndex("addresses_by_parcel").on("addresses").column("parcel_id").execute();
    await db.schema.createIndex("addresses_by_lat").on("addresses").columns(["lat", "lon"]).execute();
  },
};
