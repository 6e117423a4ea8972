import { sql, type Transaction } from "kysely";
import type { Schema, VersionCause } from "../db/schema.js";
import type { StoredRecord } from "../orders/property-records.js";
import { type LotBox, lotBoxColumns } from "./lot-box.js";

export interface NewVersion {
  propertyId: number;
  record: StoredRecord;
  /** The lot it was computed for ({@link lotBoxOf}). */
  lot: LotBox;
  cause: VersionCause;
  now: number;
  /**
   * Where the property is, as the order that computed the record found it: written by the same statement, so that
   * settling an order updates the property's row once (one round trip, and on PostgreSQL one row version).
   */
  place?: { address: string | null; lon: number; lat: number; parcel_id: number | null };
}

/**
 * Makes `record` the property's current version, inside the caller's transaction: the version it replaces is
 * kept whole in `property_versions`, and the number goes up by one. Answers the new version's number.
 */
export async function storeVersion(
  trx: Transaction<Schema>,
  { propertyId, record, lot, cause, now, place }: NewVersion,
): Promise<number> {
  await trx
    .insertInto("property_versions")
    .columns(["property_id", "version", "created_at", "cause", "record"])
    .expression((eb) =>
      eb
        .selectFrom("properties")
        .select([
          "property_id",
          "version",
          sql<number>`coalesce(version_at, updated_at)`.as("created_at"),
          sql<VersionCause>`coalesce(version_cause, 'order')`.as("cause"),
          sql<string>`record`.as("record"),
        ])
        .where("property_id", "=", propertyId)
        .where("record", "is not", null)
        .where("version", ">", 0),
    )
    .execute();
  const updated = await trx
    .updateTable("properties")
    .set((eb) => ({
      ...place,
      record: JSON.stringify(record),
      version: eb(eb.ref("version"), "+", 1),
      version_at: now,
      version_cause: cause,
      ...lotBoxColumns(lot),
      updated_at: now,
    }))
    .where("property_id", "=", propertyId)
    .returning("version")
    .executeTakeFirstOrThrow();
  return updated.version;
}
