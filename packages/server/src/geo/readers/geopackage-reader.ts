import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import SQLite from "better-sqlite3";
import type { SourceRecord } from "../types.js";
import { type Reprojection, reprojectionFrom } from "./crs.js";
import { featureRecord } from "./feature-record.js";
import { decodeGeoPackageGeometry } from "./geopackage-geometry.js";
import { messageOf } from "./json-value.js";
import { openSource } from "./open-source.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";
import { packingOf } from "./source-format.js";

/** The tables of a GeoPackage that hold records: features (with a geometry column) and attributes (without). */
interface ContentTable {
  name: string;
  dataType: "features" | "attributes";
}

interface TableColumn {
  name: string;
  type: string;
  primaryKey: boolean;
}

/** Rows between two progress reports: a report costs more than reading a row. */
const ROWS_PER_REPORT = 1024;

/**
 * Reads a GeoPackage (OGC's SQLite container, as ogr2ogr and QGIS write it) one row at a time: its one feature
 * table, or the table `options.object` names when it holds several (an attributes table, such as an address list,
 * reads as records without geometry). Each record's number is its feature id, as QGIS and ogrinfo show it; its
 * properties are the other columns (BOOLEAN columns as booleans; BLOB columns are left out). Coordinates are
 * reprojected to WGS 84 from `options.crs`, else from the geometry column's coordinate system. A geometry that is
 * not GeoPackage binary makes its record an error record; a file that is not a GeoPackage is a {@link SourceError}.
 * Progress reports the file's bytes in proportion to the feature ids read. A gzipped or zipped GeoPackage
 * (`parcels.gpkg.zip`) is unpacked to a temporary file first, which progress then reports.
 */
export async function* readGeoPackage(
  path: string,
  options: ReadOptions,
): AsyncGenerator<SourceRecord, void, undefined> {
  if (packingOf(path, options.format) === "plain") {
    yield* readTable(path, options, path);
    return;
  }
  // SQLite reads a database where it lies: a gzipped or zipped GeoPackage is unpacked to a file of its own first.
  const folder = await mkdtemp(join(tmpdir(), "lotline-geopackage-"));
  try {
    const unpacked = join(folder, "source.gpkg");
    const { object: _table, ...packing } = options;
    await pipeline(await openSource(path, packing), createWriteStream(unpacked));
    yield* readTable(unpacked, { ...options, onProgress: undefined }, path);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function* readTable(
  path: string,
  options: ReadOptions,
  label: string,
): AsyncGenerator<SourceRecord, void, undefined> {
  const database = openGeoPackage(path, label);
  try {
    const table = chooseTable(contentTables(database, label), options.object, label);
    const geometry = table.dataType === "features" ? geometryColumn(database, table.name, label) : undefined;
    const reprojection =
      options.crs !== undefined
        ? reprojectionFrom(options.crs, "--crs")
        : geometry && reprojectionOfSrs(database, geometry.srsId, label);
    const columns = tableColumns(database, table.name);
    const key = columns.find((column) => column.primaryKey && /^INT/i.test(column.type));
    const attributes = columns.filter(
      (column) => column !== key && column.name !== geometry?.name && !/^BLOB/i.test(column.type),
    );
    const id = key ? quoted(key.name) : "rowid";
    const selected = [id, geometry ? quoted(geometry.name) : "null", ...attributes.map(({ name }) => quoted(name))];
    const rows = database.prepare(`select ${selected.join(", ")} from ${quoted(table.name)}`).raw(true);
    const progress = await progressReporter(database, path, table.name, id, options.onProgress);
    const readAttributes = attributeReader(attributes);
    let position = 0;
    for (const row of rows.iterate() as Iterable<unknown[]>) {
      position++;
      const number = typeof row[0] === "number" ? row[0] : position;
      if (position % ROWS_PER_REPORT === 0) progress(number);
      yield record(number, row, readAttributes, reprojection ?? null);
    }
    progress(Number.POSITIVE_INFINITY);
  } catch (thrown) {
    if (thrown instanceof SourceError || !(thrown instanceof SQLite.SqliteError)) throw thrown;
    throw new SourceError("unreadable_source", `${label}: not a readable GeoPackage: ${messageOf(thrown)}`);
  } finally {
    database.close();
  }
}

function record(
  number: number,
  row: unknown[],
  readAttributes: (row: unknown[]) => Record<string, unknown>,
  reprojection: Reprojection | null,
): SourceRecord {
  const bytes = row[1];
  let geometry = null;
  if (bytes instanceof Uint8Array) {
    try {
      geometry = decodeGeoPackageGeometry(bytes);
    } catch (thrown) {
      return { number, error: messageOf(thrown) };
    }
  } else if (bytes !== null) {
    return { number, error: "the geometry is not GeoPackage binary" };
  }
  return featureRecord(number, { type: "Feature", properties: readAttributes(row), geometry }, reprojection, false);
}

/** The row's attributes (from its third value on) by column name. */
function attributeReader(attributes: TableColumn[]): (row: unknown[]) => Record<string, unknown> {
  const booleans = attributes.map((column) => /^BOOL/i.test(column.type));
  return (row) => {
    const properties: Record<string, unknown> = {};
    for (const [index, column] of attributes.entries()) {
      const value = row[index + 2];
      if (value instanceof Uint8Array) continue;
      properties[column.name] = booleans[index] && typeof value === "number" ? value !== 0 : value;
    }
    return properties;
  };
}

function openGeoPackage(path: string, label: string): SQLite.Database {
  let database: SQLite.Database;
  try {
    database = new SQLite(path, { readonly: true, fileMustExist: true });
  } catch (thrown) {
    throw new SourceError("unreadable_source", `${label}: cannot open as a GeoPackage: ${messageOf(thrown)}`);
  }
  try {
    const contents = database
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'gpkg_contents'")
      .get();
    if (contents === undefined) {
      throw new SourceError("unreadable_source", `${label}: not a GeoPackage (it has no gpkg_contents table)`);
    }
  } catch (thrown) {
    database.close();
    if (thrown instanceof SourceError) throw thrown;
    throw new SourceError("unreadable_source", `${label}: not a GeoPackage: ${messageOf(thrown)}`);
  }
  return database;
}

function contentTables(database: SQLite.Database, label: string): ContentTable[] {
  const rows = database
    .prepare(
      "select table_name as name, data_type as dataType from gpkg_contents where data_type in ('features', 'attributes')",
    )
    .all() as ContentTable[];
  if (rows.length === 0) throw new SourceError("unreadable_source", `${label}: the GeoPackage holds no feature table`);
  return rows;
}

/**
 * The table named by `object` (any case), else the one feature table, else the one attributes table when there is
 * no feature table.
 */
function chooseTable(tables: ContentTable[], object: string | undefined, label: string): ContentTable {
  const names = tables.map((table) => `"${table.name}"`).join(", ");
  if (object !== undefined) {
    const wanted = object.toLowerCase();
    const named = tables.find((table) => table.name.toLowerCase() === wanted);
    if (!named) throw new SourceError("unknown_object", `${label} has no table "${object}"; it holds ${names}`);
    return named;
  }
  const features = tables.filter((table) => table.dataType === "features");
  const candidates = features.length > 0 ? features : tables;
  if (candidates.length > 1) {
    throw new SourceError("unknown_object", `${label} holds several tables (${names}); name one with --object`);
  }
  return candidates[0] as ContentTable;
}

function geometryColumn(database: SQLite.Database, table: string, label: string): { name: string; srsId: number } {
  const row = database
    .prepare("select column_name as name, srs_id as srsId from gpkg_geometry_columns where table_name = ?")
    .get(table) as { name: string; srsId: number } | undefined;
  if (!row) throw new SourceError("unreadable_source", `${label}: table "${table}" has no geometry column registered`);
  return row;
}

/**
 * The reprojection from a geometry column's coordinate system: by its EPSG code where this service knows it, else
 * by the WKT the GeoPackage holds for it. Coordinate system 0 is, by the standard, undefined geographic
 * coordinates, read as WGS 84; −1 is undefined Cartesian coordinates, which need `--crs`.
 */
function reprojectionOfSrs(database: SQLite.Database, srsId: number, label: string): Reprojection | null {
  if (srsId === 0) return null;
  const origin = `${label} (coordinate system ${srsId})`;
  if (srsId === -1) {
    throw new SourceError(
      "crs_required",
      `${label}: its coordinates are in an undefined Cartesian system; give it with --crs, e.g. --crs EPSG:2249`,
    );
  }
  const row = database
    .prepare(
      `select organization, organization_coordsys_id as code, definition from gpkg_spatial_ref_sys where srs_id = ?`,
    )
    .get(srsId) as { organization: string; code: number; definition: string } | undefined;
  if (!row) throw new SourceError("unknown_crs", `${origin}: not in the GeoPackage's gpkg_spatial_ref_sys`);
  if (row.organization.toUpperCase() === "EPSG") {
    try {
      return reprojectionFrom(`EPSG:${row.code}`, origin);
    } catch (thrown) {
      // An EPSG code this service has no definition for: the GeoPackage's own WKT says what it is.
      if (!(thrown instanceof SourceError) || row.definition.trim().toLowerCase() === "undefined") throw thrown;
    }
  }
  return reprojectionFrom(row.definition, origin);
}

function tableColumns(database: SQLite.Database, table: string): TableColumn[] {
  const rows = database.prepare(`select name, type, pk from pragma_table_info(?)`).all(table) as Array<{
    name: string;
    type: string;
    pk: number;
  }>;
  return rows.map((row) => ({ name: row.name, type: row.type, primaryKey: row.pk > 0 }));
}

/**
 * Reports progress as the file's bytes in proportion to the feature id read against the largest: ids are written
 * in order, and counting the rows first would read the whole table once more.
 */
async function progressReporter(
  database: SQLite.Database,
  path: string,
  table: string,
  id: string,
  onProgress: ReadOptions["onProgress"],
): Promise<(id: number) => void> {
  if (!onProgress) return () => {};
  const { size } = await stat(path);
  const last = (
    database.prepare(`select max(${id}) as value from ${quoted(table)}`).get() as {
      value: number | null;
    }
  ).value;
  return (id) => onProgress(Math.round(size * Math.min(1, last ? id / last : 1)), size);
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
