import SQLite from "better-sqlite3";

/** A table of a test GeoPackage: its columns' declared types and its rows, by column. */
export interface TestTable {
  name: string;
  dataType: "features" | "attributes";
  /** Features only: the geometry column's coordinate system (a `srs_id` of `srs`, or 0 / −1). */
  srsId?: number;
  columns: Record<string, string>;
  rows: Array<Record<string, unknown>>;
}

/** A coordinate system of a test GeoPackage's `gpkg_spatial_ref_sys`. */
export interface TestSrs {
  srsId: number;
  organization: string;
  code: number;
  definition: string;
}

/**
 * Writes a GeoPackage at `path` as the standard lays it out (the tables `gpkg_spatial_ref_sys`, `gpkg_contents`,
 * `gpkg_geometry_columns` and each table of records, its geometry column named `geom`), with better-sqlite3 alone,
 * as a reference tool would.
 */
export function writeGeoPackage(path: string, tables: TestTable[], srs: TestSrs[] = []): void {
  const database = new SQLite(path);
  try {
    database.pragma("application_id = 1196444487"); // "GPKG"
    database.exec(`
      create table gpkg_spatial_ref_sys (srs_name text not null, srs_id integer primary key, organization text not null,
        organization_coordsys_id integer not null, definition text not null, description text);
      create table gpkg_contents (table_name text primary key, data_type text not null, identifier text unique,
        description text default '', last_change datetime, min_x double, min_y double, max_x double, max_y double,
        srs_id integer);
      create table gpkg_geometry_columns (table_name text not null, column_name text not null,
        geometry_type_name text not null, srs_id integer not null, z tinyint not null, m tinyint not null);
      insert into gpkg_spatial_ref_sys values ('WGS 84', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84"]', null),
        ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', null),
        ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', null);`);
    const addSrs = database.prepare("insert into gpkg_spatial_ref_sys values (?, ?, ?, ?, ?, null)");
    for (const entry of srs)
      addSrs.run(`srs ${entry.srsId}`, entry.srsId, entry.organization, entry.code, entry.definition);
    for (const table of tables) writeTable(database, table);
  } finally {
    database.close();
  }
}

function writeTable(database: SQLite.Database, table: TestTable): void {
  const columns = Object.entries(table.columns).map(([name, type]) => `"${name}" ${type}`);
  const geometry = table.dataType === "features" ? ["geom BLOB"] : [];
  database.exec(`create table "${table.name}" (fid integer primary key autoincrement, ${[...geometry, ...columns]})`);
  database
    .prepare("insert into gpkg_contents (table_name, data_type, identifier, srs_id) values (?, ?, ?, ?)")
    .run(table.name, table.dataType, table.name, table.srsId ?? null);
  if (table.dataType === "features") {
    database
      .prepare("insert into gpkg_geometry_columns values (?, 'geom', 'GEOMETRY', ?, 0, 0)")
      .run(table.name, table.srsId ?? 4326);
  }
  const insert = database.transaction((rows: TestTable["rows"]) => {
    for (const row of rows) {
      const names = Object.keys(row);
      database
        .prepare(`insert into "${table.name}" (${names.map((name) => `"${name}"`)}) values (${names.map(() => "?")})`)
        .run(...names.map((name) => row[name]));
    }
  });
  insert(table.rows);
}

/**
 * A geometry as GeoPackage binary: the header (`GP`, version 0, flags, srs_id, envelope), then `wkb`. `envelope`
 * holds 0, 4 (xy) or 8 (xyzm) doubles; `bigEndian` writes the header's numbers big-endian; `empty` sets the empty
 * flag.
 */
export function geoPackageGeometry(
  wkb: Uint8Array,
  { srsId = 4326, envelope = [], bigEndian = false, empty = false }: GeometryHeader = {},
): Buffer {
  const indicator = { 0: 0, 4: 1, 8: 4 }[envelope.length];
  if (indicator === undefined) throw new Error("an envelope holds 0, 4 or 8 numbers here");
  const header = Buffer.alloc(8 + envelope.length * 8);
  header.write("GP", 0, "ascii");
  header.writeUInt8(0, 2);
  header.writeUInt8((empty ? 0b1_0000 : 0) | (indicator << 1) | (bigEndian ? 0 : 1), 3);
  if (bigEndian) header.writeInt32BE(srsId, 4);
  else header.writeInt32LE(srsId, 4);
  for (const [index, value] of envelope.entries()) {
    if (bigEndian) header.writeDoubleBE(value, 8 + index * 8);
    else header.writeDoubleLE(value, 8 + index * 8);
  }
  return Buffer.concat([header, wkb]);
}

interface GeometryHeader {
  srsId?: number;
  envelope?: number[];
  bigEndian?: boolean;
  empty?: boolean;
}
