import { type SqlBool, sql } from "kysely";
import type { DatasetKind, Schema } from "../../db/schema.js";
import { type GeoSource, KEY } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";

/** The table holding each kind's rows. */
export const TABLE_OF_KIND = {
  parcels: "parcels",
  buildings: "buildings",
  addresses: "addresses",
  layer: "layer_features",
} as const satisfies Record<DatasetKind, keyof Schema>;

/**
 * SQLite: a dataset holding at least this share of its table's rows is measured in one pass over the table, in
 * the order its rows are stored. Through the index by (dataset, source id) the rows come in source-id order, a page
 * read for nearly each: at a million parcels 3.9 s against 0.46 s in one pass (counting the dataset's entries
 * first, to choose, included), and inside an import's transaction every such read also searches the write-ahead log.
 */
const ONE_PASS_FROM_SHARE = 1 / 12;

/** Stores on the dataset how many rows it now holds and the box of them all (null when it holds none). */
export async function refreshExtentAndCount(source: GeoSource, datasetId: number, kind: DatasetKind): Promise<void> {
  const { db } = source;
  const table = TABLE_OF_KIND[kind];
  // Addresses are points in lon/lat columns; the other kinds carry their box in four columns.
  const [minLon, minLat, maxLon, maxLat] =
    kind === "addresses" ? ["lon", "lat", "lon", "lat"] : ["min_lon", "min_lat", "max_lon", "max_lat"];
  const datasetColumn = (await inOnePass(source, kind, datasetId)) ? sql`+dataset_id` : sql`dataset_id`;
  const extent = await db
    .selectFrom(table)
    .select([
      sql<number | null>`min(${sql.ref(minLon as string)})`.as("min_lon"),
      sql<number | null>`min(${sql.ref(minLat as string)})`.as("min_lat"),
      sql<number | null>`max(${sql.ref(maxLon as string)})`.as("max_lon"),
      sql<number | null>`max(${sql.ref(maxLat as string)})`.as("max_lat"),
      sql<number | string>`count(*)`.as("record_count"),
    ])
    .where(sql<SqlBool>`${datasetColumn} = ${datasetId}`)
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

/**
 * Whether SQLite should read the whole table for the dataset (see {@link ONE_PASS_FROM_SHARE}): its entries counted
 * in the index alone, the table's rows told by its highest id. PostgreSQL's planner weighs this from the
 * statistics an import keeps up to date; addresses have no index by dataset, and are always read in one pass.
 */
async function inOnePass({ db, dialect }: GeoSource, kind: DatasetKind, datasetId: number): Promise<boolean> {
  if (dialect !== "sqlite" || kind === "addresses") return false;
  const table = TABLE_OF_KIND[kind];
  const { rows } = await sql<{ held: number; highest: number | null }>`
    select (select count(*) from ${sql.table(table)} where dataset_id = ${datasetId}) as held,
      (select max(${sql.ref(KEY[table])}) from ${sql.table(table)}) as highest`.execute(db);
  const { held = 0, highest = 0 } = rows[0] ?? {};
  return held >= ONE_PASS_FROM_SHARE * (highest ?? 0);
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
