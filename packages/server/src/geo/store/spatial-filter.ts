import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Dialect } from "../../db/database.js";
import type { Schema } from "../../db/schema.js";
import type { BBox } from "../types.js";

/** Tables whose rows carry a bounding box under a spatial index (see migration 0002). */
export type SpatialTable = "parcels" | "buildings" | "layer_features" | "layer_parts";

/** Tables with a box under a spatial index: the geodata's, and the properties by the box of their lots. */
export type BoxIndexedTable = SpatialTable | "properties";

export const KEY: Record<BoxIndexedTable, string> = {
  parcels: "parcel_id",
  buildings: "building_id",
  layer_features: "feature_id",
  layer_parts: "part_id",
  properties: "property_id",
};

/** The prefix of a table's box columns: a property's box is its lot's (migration 0014). */
export const BOX_COLUMNS: Record<BoxIndexedTable, string> = {
  parcels: "",
  buildings: "",
  layer_features: "",
  layer_parts: "",
  properties: "lot_",
};

/**
 * The index-backed condition "the row's bounding box meets `bbox`": through the R*Tree on SQLite, through the
 * GiST box index on PostgreSQL. It only narrows candidates; callers apply the exact predicate afterwards.
 */
export function bboxMeets(
  dialect: Dialect,
  table: BoxIndexedTable,
  [minLon, minLat, maxLon, maxLat]: BBox,
): Expression<SqlBool> {
  if (dialect === "sqlite") {
    return sql<SqlBool>`${sql.ref(`${table}.${KEY[table]}`)} in (select id from ${sql.table(`${table}_rtree`)}
      where min_lon <= ${maxLon} and max_lon >= ${minLon} and min_lat <= ${maxLat} and max_lat >= ${minLat})`;
  }
  const column = (name: string) => sql.ref(`${table}.${BOX_COLUMNS[table]}${name}`);
  return sql<SqlBool>`box(point(${column("min_lon")}, ${column("min_lat")}), point(${column("max_lon")}, ${column(
    "max_lat",
  )})) && box(point(${minLon}::float8, ${minLat}::float8), point(${maxLon}::float8, ${maxLat}::float8))`;
}

/**
 * {@link bboxMeets} for the features of the layers `datasetIds` (at least one), through an index that holds the
 * layer beside the box (migration 0020), so that the search reads no entry of another layer: the index of every
 * layer read each hydrant in a box kilometres wide to find the nearest fire station. On SQLite the layer is the
 * R*Tree's third dimension, and a range of ids holding other layers still needs the exact filter on the dataset
 * beside it; on PostgreSQL each layer's boxes are moved east by 360° per dataset id, one box asked for per layer.
 */
export function layerBBoxMeets(dialect: Dialect, datasetIds: readonly number[], bbox: BBox): Expression<SqlBool> {
  const [minLon, minLat, maxLon, maxLat] = bbox;
  if (dialect === "sqlite") {
    const [first, last] = [Math.min(...datasetIds), Math.max(...datasetIds)];
    return sql<SqlBool>`layer_features.feature_id in (select id from layer_features_rtree
      where min_lon <= ${maxLon} and max_lon >= ${minLon} and min_lat <= ${maxLat} and max_lat >= ${minLat}
        and min_layer <= ${last} and max_layer >= ${first})`;
  }
  // The indexed expression, written as the index was made; the same shift on both sides keeps every meeting pair.
  const shift = sql`360 * layer_features.dataset_id::float8`;
  const indexed = sql`box(point(layer_features.min_lon + ${shift}, layer_features.min_lat),
    point(layer_features.max_lon + ${shift}, layer_features.max_lat))`;
  const asked = (id: number) =>
    sql`box(point(${minLon + 360 * id}::float8, ${minLat}::float8), point(${maxLon + 360 * id}::float8, ${maxLat}::float8))`;
  return sql<SqlBool>`(${sql.join(
    datasetIds.map((id) => sql`${indexed} && ${asked(id)}`),
    sql` or `,
  )})`;
}

/** The bounding-box columns of a geometry's box, for inserts. */
export function bboxColumns([minLon, minLat, maxLon, maxLat]: BBox) {
  return { min_lon: minLon, min_lat: minLat, max_lon: maxLon, max_lat: maxLat };
}

/** Where spatial queries run: the database, or a transaction on it, and its dialect. */
export interface GeoSource {
  db: Kysely<Schema>;
  dialect: Dialect;
}

/**
 * `column = value` beside a {@link bboxMeets}, written so that no index answers it (`+column` on SQLite,
 * `column + 0` on PostgreSQL): the spatial index must lead, and alone. Otherwise SQLite walks the whole layer
 * through the index on (dataset_id, source_id) — 7 ms instead of 0.24 ms for a point among 150,000 hydrants — and
 * PostgreSQL reads every entry of the layer in that index to AND its bitmap with the boxes': 21 entries for a
 * city's flood zones, and as many as the layer has across a state.
 */
export function sameValueUnindexed(dialect: Dialect, column: string, value: number): Expression<SqlBool> {
  return sql<SqlBool>`${unindexed(dialect, column)} = ${value}`;
}

/** `column in (values)` beside a {@link bboxMeets}, kept out of the plan's indexes as {@link sameValueUnindexed} is. */
export function oneOfUnindexed(dialect: Dialect, column: string, values: readonly number[]): Expression<SqlBool> {
  const list = sql.join(values.map((value) => sql`${value}`));
  return sql<SqlBool>`${unindexed(dialect, column)} in (${list})`;
}

/**
 * A table's id for pages in id order beside a {@link bboxMeets} (`id > after … order by id limit n`). On
 * PostgreSQL it is written `id + 0`, which no index serves: offered the primary key for the order, the planner
 * walked it from the first row, testing each row's box until the page was full (a second for a map of the last
 * tile of 1 M parcels, and more as the table grows). SQLite reads the R*Tree's ids as a sorted list, in order.
 */
export function idForOrder(dialect: Dialect, column: string): RawBuilder<number> {
  return dialect === "sqlite" ? sql<number>`${sql.ref(column)}` : sql<number>`${unindexed(dialect, column)}`;
}

/** An integer column as an expression no index of either database is on. */
function unindexed(dialect: Dialect, column: string) {
  return dialect === "sqlite" ? sql`+${sql.ref(column)}` : sql`(${sql.ref(column)} + 0)`;
}

/**
 * `column` among `ids` (row ids, or a batch's source ids), written as one statement for any number of them (a JSON
 * array on SQLite, an array on PostgreSQL): it stays prepared, and a few thousand ids cost one parameter, not a few
 * thousand. An `in (…)` list of each length was a statement of its own, and an import's batches filled the
 * statement cache with them.
 */
export function amongIds(dialect: Dialect, column: string, ids: readonly (number | string)[]): Expression<SqlBool> {
  return dialect === "sqlite"
    ? sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`
    : sql<SqlBool>`${sql.ref(column)} = any(${ids})`;
}
