import { type SelectQueryBuilder, sql } from "kysely";
import type { Schema } from "../../db/schema.js";
import { mergeParts } from "../geometry/subdivide.js";
import type { BBox, Polygon } from "../types.js";
import {
  type Building,
  buildingOf,
  type LayerFeature,
  layerFeatureOf,
  type Parcel,
  PLAIN_COLUMNS,
  type PlainBuilding,
  parcelOf,
} from "./geo-rows.js";
import { partsMeetingBBox } from "./layer-parts.js";
import {
  buildingShapes,
  layerPartShapes,
  layerShapes,
  type ParsedShapes,
  parcelShapes,
  type Shape,
} from "./parsed-shapes.js";
import { amongIds, type GeoSource, type SpatialTable } from "./spatial-filter.js";
import { attributesFrom } from "./stored-attributes.js";

/** The conditions, order and limit of a query on one spatial table, before its columns are chosen. */
// biome-ignore lint/complexity/noBannedTypes: Kysely's type for a query that selects nothing yet
type Narrow<T extends SpatialTable> = (query: SelectQueryBuilder<Schema, T, {}>) => SelectQueryBuilder<Schema, T, {}>;

/**
 * How a query's shapes are read. By default in a second step, only for the rows not parsed already (see
 * {@link readShapes}); with `shapesAlong`, by the query itself, for one that finds a few small rows mostly met
 * for the first time (the parcel at an order's point, its buildings): one round trip instead of two.
 */
export interface ShapeReading {
  shapesAlong?: boolean;
}

/** The parcels a query finds, in its order, with their shapes read as {@link ShapeReading} says. */
export async function readParcels(
  source: GeoSource,
  narrow: Narrow<"parcels">,
  { shapesAlong = false }: ShapeReading = {},
): Promise<Parcel[]> {
  if (shapesAlong) return readParcelsWithShapes(source, narrow);
  const rows = await narrow(source.db.selectFrom("parcels")).select(PLAIN_COLUMNS.parcels).execute();
  const shapes = await readShapes(source, "parcels", rows.map(keyOf("parcel_id")));
  return present(rows, shapes, parcelOf);
}

async function readParcelsWithShapes(source: GeoSource, narrow: Narrow<"parcels">): Promise<Parcel[]> {
  const rows = await narrow(source.db.selectFrom("parcels"))
    .leftJoin("attribute_keys as k", "k.keys_id", "parcels.attribute_keys_id")
    .select([...PLAIN_COLUMNS.parcels, "boundary", "k.keys", "attributes"])
    .execute();
  return rows.map((row) =>
    parcelOf(row, parcelShapes.parse(row.parcel_id, row.import_id, row.boundary, row.keys, row.attributes)),
  );
}

/** The buildings a query finds, in its order, with their shapes read as {@link ShapeReading} says. */
export async function readBuildings(
  source: GeoSource,
  narrow: Narrow<"buildings">,
  { shapesAlong = false }: ShapeReading = {},
): Promise<Building[]> {
  if (shapesAlong) return readBuildingsWithShapes(source, narrow);
  const rows = await narrow(source.db.selectFrom("buildings")).select(PLAIN_COLUMNS.buildings).execute();
  return buildingsOfRows(source, rows);
}

/**
 * The buildings of rows a query read with {@link PLAIN_COLUMNS} (and maybe more), with their shapes read as
 * {@link readShapes} does: for a query that decides by the plain columns which rows it needs whole.
 */
export async function buildingsOfRows(source: GeoSource, rows: PlainBuilding[]): Promise<Building[]> {
  return present(rows, await readShapes(source, "buildings", rows.map(keyOf("building_id"))), buildingOf);
}

async function readBuildingsWithShapes(source: GeoSource, narrow: Narrow<"buildings">): Promise<Building[]> {
  const rows = await narrow(source.db.selectFrom("buildings"))
    .leftJoin("attribute_keys as k", "k.keys_id", "buildings.attribute_keys_id")
    .select([...PLAIN_COLUMNS.buildings, "footprint", "k.keys", "attributes"])
    .execute();
  return rows.map((row) =>
    buildingOf(row, buildingShapes.parse(row.building_id, row.import_id, row.footprint, row.keys, row.attributes)),
  );
}

/**
 * The layer features a query finds, in its order. Given `near`, a feature stored in parts (a large polygon, see
 * `layer-parts.ts`) comes back as its parts meeting that box put back together: the feature there, which answers
 * for an area inside the box whether it meets the feature and by how much. A feature none of whose parts meet the
 * box is left out.
 */
export async function readLayerFeatures(
  source: GeoSource,
  narrow: Narrow<"layer_features">,
  near?: BBox,
): Promise<LayerFeature[]> {
  const rows = await narrow(source.db.selectFrom("layer_features")).select(PLAIN_COLUMNS.layer_features).execute();
  const inParts = (row: (typeof rows)[number]) => near !== undefined && row.part_count > 0;
  const whole = rows.filter((row) => !inParts(row));
  // The whole features' shapes and the large ones' parts are read at once: on PostgreSQL, on connections of their own.
  const [wholeShapes, partShapes] = await Promise.all([
    readShapes(source, "layer_features", whole.map(keyOf("feature_id"))),
    near ? partsNear(source, rows.filter(inParts), near) : new Map<number, Shape>(),
  ]);
  const shapes = new Map(whole.map((row, i) => [row.feature_id, wholeShapes[i]]));
  for (const [id, shape] of partShapes) shapes.set(id, shape);
  return present(
    rows,
    rows.map((row) => shapes.get(row.feature_id)),
    layerFeatureOf,
  );
}

/**
 * The features' parts meeting `box`, each feature's put back together (`mergeParts`), with its attributes. The
 * attributes of every feature given are read beside the parts, not after them: a few more rows at times, one
 * round trip fewer.
 */
async function partsNear(
  source: GeoSource,
  features: Array<{ feature_id: number }>,
  box: BBox,
): Promise<Map<number, Shape>> {
  if (features.length === 0) return new Map();
  const ids = features.map((feature) => feature.feature_id);
  const [parts, attributes] = await Promise.all([partShapesMeeting(source, ids, box), attributesOf(source, ids)]);
  const byFeature = new Map<number, Polygon[]>();
  for (const { featureId, geometry } of parts) {
    if (geometry) byFeature.set(featureId, [...(byFeature.get(featureId) ?? []), geometry]);
  }
  const shapes = new Map<number, Shape>();
  for (const [id, polygons] of byFeature) {
    shapes.set(id, { geometry: mergeParts(polygons), attributes: attributes.get(id) ?? {} });
  }
  return shapes;
}

/** The parts of `featureIds` meeting `box`, in id order, each with its polygon (none if removed meanwhile). */
async function partShapesMeeting(source: GeoSource, featureIds: number[], box: BBox) {
  const parts = await partsMeetingBBox(source, featureIds, box);
  const shapes = await readShapes(source, "layer_parts", parts.map(keyOf("part_id")));
  return parts.map((part, i) => ({ featureId: part.feature_id, geometry: shapes[i]?.geometry as Polygon | undefined }));
}

/** The attributes of layer features by id, parsed. */
async function attributesOf(source: GeoSource, ids: number[]): Promise<Map<number, Record<string, unknown>>> {
  if (ids.length === 0) return new Map();
  const rows = await source.db
    .selectFrom("layer_features")
    .leftJoin("attribute_keys", "attribute_keys.keys_id", "layer_features.attribute_keys_id")
    .select(["feature_id", "attribute_keys.keys", "attributes"])
    .where("feature_id", "in", ids)
    .execute();
  return new Map(rows.map((row) => [row.feature_id, attributesFrom(row.keys, row.attributes)]));
}

interface RowKey {
  id: number;
  importId: number;
}

function keyOf<Id extends string>(column: Id) {
  return (row: { [K in Id]: number } & { import_id: number }): RowKey => ({ id: row[column], importId: row.import_id });
}

/** Where each table keeps its shapes: the cache, the key and geometry columns, and whether it has attributes. */
const SHAPES: Record<SpatialTable, { cache: ParsedShapes; id: string; geometry: string; attributes: boolean }> = {
  parcels: { cache: parcelShapes, id: "parcel_id", geometry: "boundary", attributes: true },
  buildings: { cache: buildingShapes, id: "building_id", geometry: "footprint", attributes: true },
  layer_features: { cache: layerShapes, id: "feature_id", geometry: "geometry", attributes: true },
  layer_parts: { cache: layerPartShapes, id: "part_id", geometry: "geometry", attributes: false },
};

/**
 * The shapes (geometry and attributes) of the rows a query found, read in a second step and only for rows not
 * parsed already: a query reads the plain columns of every candidate, and the JSON text — kilobytes for a
 * footprint, megabytes for a flood zone — crosses from the database only the first time a row is met. A row
 * removed between the two steps has no shape (and is left out); one re-imported between them has its new shape.
 */
async function readShapes(source: GeoSource, table: SpatialTable, keys: RowKey[]): Promise<Array<Shape | undefined>> {
  const { cache } = SHAPES[table];
  const shapes = keys.map(({ id, importId }) => cache.get(id, importId));
  const missing = keys.filter((_, i) => shapes[i] === undefined).map(({ id }) => id);
  if (missing.length === 0) return shapes;
  const read = new Map<number, Shape>();
  for (const row of await shapeRows(source, table, missing)) {
    read.set(row.id, cache.parse(row.id, row.import_id, row.geometry, row.attribute_keys, row.attributes));
  }
  return keys.map(({ id }, i) => shapes[i] ?? read.get(id));
}

/** A stored row's geometry, unparsed. */
interface GeometryRow {
  id: number;
  import_id: number;
  geometry: Uint8Array;
}

/** A stored row's geometry and attributes, unparsed: the names (null for none) and the values, as JSON. */
interface ShapeRow extends GeometryRow {
  attribute_keys: string | null;
  attributes: string;
}

/**
 * The stored geometry of rows by id, unparsed: one statement for any number of ids (a JSON array on SQLite, an
 * array on PostgreSQL), so it stays prepared.
 */
export async function geometryRows(
  { db, dialect }: GeoSource,
  table: SpatialTable,
  ids: number[],
): Promise<GeometryRow[]> {
  const { id, geometry } = SHAPES[table];
  const { rows } = await sql<GeometryRow>`
    select ${sql.ref(id)} as id, import_id, ${sql.ref(geometry)} as geometry
    from ${sql.table(table)} where ${amongIds(dialect, id, ids)}`.execute(db);
  return rows;
}

/** The stored geometry and attributes of rows by id, unparsed, as {@link geometryRows} reads them. */
async function shapeRows(source: GeoSource, table: SpatialTable, ids: number[]): Promise<ShapeRow[]> {
  const { id, geometry, attributes } = SHAPES[table];
  if (!attributes) {
    const rows = await geometryRows(source, table, ids);
    return rows.map((row) => ({ ...row, attribute_keys: null, attributes: "[]" }));
  }
  const { rows } = await sql<ShapeRow>`
    select ${sql.ref(id)} as id, import_id, ${sql.ref(geometry)} as geometry, k.keys as attribute_keys, attributes
    from ${sql.table(table)} left join attribute_keys k on k.keys_id = attribute_keys_id
    where ${amongIds(source.dialect, id, ids)}`.execute(source.db);
  return rows;
}

function present<Row, Item>(
  rows: Row[],
  shapes: Array<Shape | undefined>,
  of: (row: Row, shape: Shape) => Item,
): Item[] {
  const items: Item[] = [];
  for (const [i, row] of rows.entries()) {
    const shape = shapes[i];
    if (shape) items.push(of(row, shape));
  }
  return items;
}
