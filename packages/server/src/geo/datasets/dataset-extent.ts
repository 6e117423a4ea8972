import { type Kysely, sql } from "kysely";
import type { DatasetKind, Schema } from "../../db/schema.js";
import type { BBox } from "../types.js";

/** The table holding each kind's rows. */
export const TABLE_OF_KIND = {
  parcels: "parcels",
  buildings: "buildings",
  addresses: "addresses",
  layer: "layer_features",
} as const satisfies Record<DatasetKind, keyof Schema>;

/** Stores on the dataset how many rows it now holds and the box of them all (null when it holds none). */
export async function refreshExtentAndCount(db: Kysely<Schema>, datasetId: number, kind: DatasetKind): Promise<void> {
  const table = TABLE_OF_KIND[kind];
  // Addresses are points in lon/lat columns; the other kinds carry their box in four columns.
  const [minLon, minLat, maxLon, maxLat] =
    kind === "addresses" ? ["lon", "lat", "lon", "lat"] : ["min_lon", "min_lat", "max_lon", "max_lat"];
  const extent = await db
    .selectFrom(table)
    .select([
      sql<number | null>`min(${sql.ref(minLon as string)})`.as("min_lon"),
      sql<number | null>`min(${sql.ref(minLat as string)})`.as("min_lat"),
      sql<number | null>`max(${sql.ref(maxLon as string)})`.as("max_lon"),
      sql<number | null>`max(${sql.ref(maxLat as string)})`.as("max_lat"),
      sql<number | string>`count(*)`.as("record_count"),
    ])
    .where("dataset_id", "=", datasetId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable("datasets")
    .set({
      min_lon: numberOrNull(extent.min_lon),
      min_lat: numberOrNull(extent.min_lat),
      max_lon: numberOrNull(extent.max_lon),
      max_lat: numberOrNull(extent.max_lat),
      record_count: Number(extent.record_count),
    })
    .where("dataset_id", "=", datasetId)
    .execute();
}

/** A dataset's stored extent, when it has one. */
export function extentOf(row: {
  min_lon: number | null;
  min_lat: number | null;
  max_lon: number | null;
  max_lat: number | null;
}): BBox | null {
  const { min_lon, min_lat, max_lon, max_lat } = row;
  return min_lon === null || min_lat === null || max_lon === null || max_lat === null
    ? null
    : [min_lon, min_lat, max_lon, max_lat];
}

/** PostgreSQL answers aggregates of `double precision` as numbers, but be sure: strings become numbers. */
function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
