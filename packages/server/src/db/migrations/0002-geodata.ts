import { type CreateTableBuilder, type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../database.js";
import { createTableWithId } from "./create-table-with-id.js";

/**
 * Property geodata: datasets and their imports, parcels, buildings, addresses and layer features.
 *
 * Geometry is GeoJSON text on both databases, with its bounding box in four columns. The spatial index over those
 * boxes is each database's own: an R*Tree virtual table on SQLite (kept in step by triggers), a GiST index over
 * `box(...)` on PostgreSQL (core, no extension). Exact predicates run in one shared code path after the index has
 * narrowed the candidates, so both databases give the same answers.
 */
export function geodata(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const id = (table: string, column: string) => createTableWithId(db, dialect, table, column);

      await id("datasets", "dataset_id")
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("provider", "text")
        .addColumn("license", "text")
        .addColumn("vintage", "text")
        .addColumn("geometry_kind", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("datasets_kind_name", ["kind", "name"])
        .execute();

      await id("imports", "import_id")
        .addColumn("dataset_id", "integer", (c) => c.notNull().references("datasets.dataset_id").onDelete("cascade"))
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("started_at", "bigint", (c) => c.notNull())
        .addColumn("finished_at", "bigint")
        .addColumn("summary", "text")
        .execute();

      await id("parcels", "parcel_id")
        .addColumn("dataset_id", "integer", (c) => c.notNull().references("datasets.dataset_id").onDelete("cascade"))
        .addColumn("source_id", "text", (c) => c.notNull())
        .addColumn("boundary", "text", (c) => c.notNull())
        .addColumn("attributes", "text", (c) => c.notNull())
        .addColumn("area_m2", "double precision", (c) => c.notNull())
        .$call(withBBox)
        .addColumn("import_id", "integer", (c) => c.notNull().references("imports.import_id"))
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("parcels_source", ["dataset_id", "source_id"])
        .execute();
      await db.schema.createIndex("parcels_by_source_id").on("parcels").column("source_id").execute();

      await id("buildings", "building_id")
        .addColumn("dataset_id", "integer", (c) => c.notNull().references("datasets.dataset_id").onDelete("cascade"))
        .addColumn("source_id", "text", (c) => c.notNull())
        .addColumn("footprint", "text", (c) => c.notNull())
        .addColumn("attributes", "text", (c) => c.notNull())
        .addColumn("area_m2", "double precision", (c) => c.notNull())
        .$call(withBBox)
        .addColumn("parcel_id", "integer", (c) => c.references("parcels.parcel_id").onDelete("set null"))
        .addColumn("parcel_share", "double precision")
        .addColumn("import_id", "integer", (c) => c.notNull().references("imports.import_id"))
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("buildings_source", ["dataset_id", "source_id"])
        .execute();
      await db.schema.createIndex("buildings_by_parcel").on("buildings").column("parcel_id").execute();

      await id("addresses", "address_id")
        .addColumn("dataset_id", "integer", (c) => c.notNull().references("datasets.dataset_id").onDelete("cascade"))
        .addColumn("address_key", "text", (c) => c.notNull())
        .addColumn("display", "text", (c) => c.notNull())
        .addColumn("number", "text")
        // Numeric bounds of the house number or range; `12 1/2` is 12.5.
        .addColumn("number_low", "double precision")
        .addColumn("number_high", "double precision")
        .addColumn("street", "text", (c) => c.notNull())
        .addColumn("unit_type", "text")
        .addColumn("unit", "text")
        .addColumn("city", "text")
        .addColumn("state", "text")
        .addColumn("postcode", "text")
        .addColumn("normalized", "text", (c) => c.notNull())
        .addColumn("parcel_id", "integer", (c) => c.references("parcels.parcel_id").onDelete("set null"))
        .addColumn("lon", "double precision", (c) => c.notNull())
        .addColumn("lat", "double precision", (c) => c.notNull())
        .addColumn("import_id", "integer", (c) => c.notNull().references("imports.import_id"))
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("addresses_key", ["dataset_id", "address_key"])
        .execute();
      await db.schema.createIndex("addresses_by_street").on("addresses").columns(["street", "number_low"]).execute();
      await db.schema.createIndex("addresses_by_parcel").on("addresses").column("parcel_id").execute();
      await db.schema.createIndex("addresses_by_lat").on("addresses").columns(["lat", "lon"]).execute();

      await id("layer_features", "feature_id")
        .addColumn("dataset_id", "integer", (c) => c.notNull().references("datasets.dataset_id").onDelete("cascade"))
        .addColumn("source_id", "text", (c) => c.notNull())
        .addColumn("geometry", "text", (c) => c.notNull())
        .addColumn("attributes", "text", (c) => c.notNull())
        .$call(withBBox)
        .addColumn("import_id", "integer", (c) => c.notNull().references("imports.import_id"))
        .addUniqueConstraint("layer_features_source", ["dataset_id", "source_id"])
        .execute();

      for (const [table, key] of SPATIAL_TABLES) {
        if (dialect === "sqlite") await sqliteSpatialIndex(db, table, key);
        else await postgresSpatialIndex(db, table);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const [table] of SPATIAL_TABLES) {
        if (dialect === "sqlite") await sql.raw(`drop table if exists ${table}_rtree`).execute(db);
      }
      for (const table of ["layer_features", "addresses", "buildings", "parcels", "imports", "datasets"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

/** The four bounding-box columns the spatial index covers. */
function withBBox<T extends string, C extends string>(
  table: CreateTableBuilder<T, C>,
): CreateTableBuilder<T, C | "min_lon" | "min_lat" | "max_lon" | "max_lat"> {
  return table
    .addColumn("min_lon", "double precision", (c) => c.notNull())
    .addColumn("min_lat", "double precision", (c) => c.notNull())
    .addColumn("max_lon", "double precision", (c) => c.notNull())
    .addColumn("max_lat", "double precision", (c) => c.notNull());
}

/** The tables with a spatial index, and their key column. */
export const SPATIAL_TABLES = [
  ["parcels", "parcel_id"],
  ["buildings", "building_id"],
  ["layer_features", "feature_id"],
] as const;

export async function sqliteSpatialIndex(db: Kysely<unknown>, table: string, key: string): Promise<void> {
  const rtree = `${table}_rtree`;
  const box = "new.min_lon, new.max_lon, new.min_lat, new.max_lat";
  await sql.raw(`create virtual table ${rtree} using rtree(id, min_lon, max_lon, min_lat, max_lat)`).execute(db);
  await sql
    .raw(`create trigger ${table}_rtree_insert after insert on ${table} begin
      insert into ${rtree} values (new.${key}, ${box}); end`)
    .execute(db);
  await sql
    .raw(`create trigger ${table}_rtree_update after update of min_lon, min_lat, max_lon, max_lat on ${table} begin
      update ${rtree} set min_lon = new.min_lon, max_lon = new.max_lon, min_lat = new.min_lat, max_lat = new.max_lat
      where id = new.${key}; end`)
    .execute(db);
  await sql
    .raw(`create trigger ${table}_rtree_delete after delete on ${table} begin
      delete from ${rtree} where id = old.${key}; end`)
    .execute(db);
}

export async function postgresSpatialIndex(db: Kysely<unknown>, table: string): Promise<void> {
  await sql
    .raw(`create index ${table}_bbox on ${table} using gist (box(point(min_lon, min_lat), point(max_lon, max_lat)))`)
    .execute(db);
}
