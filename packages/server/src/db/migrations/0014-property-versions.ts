import { type Kysely, type Migration, sql } from "kysely";
import type { StoredRecord } from "../../orders/property-records.js";
import { lotBoxColumns, storedLotBox } from "../../versions/lot-box.js";
import type { Dialect } from "../database.js";
import type { Schema } from "../schema.js";

/** Records read a step while their lot boxes are filled in. */
const RECORDS_PER_STEP = 500;

const LOT_BOX = ["lot_min_lon", "lot_min_lat", "lot_max_lon", "lot_max_lat"] as const;

/**
 * Property records keep their versions: the current one on the property (its number, when and why it was made),
 * every earlier one whole in `property_versions`, so an insurer can see what its data said at any time. The
 * records already computed become version 1, made by their order. The box of the lot each record was computed for
 * is kept beside it, so that imported data changing finds the records it may alter without reading them.
 */
export function propertyVersions(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("properties")
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("properties").addColumn("version_at", "bigint").execute();
      await db.schema.alterTable("properties").addColumn("version_cause", "text").execute();
      for (const column of LOT_BOX) {
        await db.schema.alterTable("properties").addColumn(column, "double precision").execute();
      }
      await db.schema
        .alterTable("properties")
        .addColumn("lot_drawn", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update properties set version = 1, version_at = updated_at, version_cause = 'order'
      where record is not null`.execute(db);
      await fillLotBoxes(db as Kysely<Schema>);
      await lotBoxIndex(db, dialect);
      await db.schema
        .createTable("property_versions")
        .addColumn("property_id", "integer", (c) =>
          c.notNull().references("properties.property_id").onDelete("cascade"),
        )
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("cause", "text", (c) => c.notNull())
        .addColumn("record", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("property_versions_pk", ["property_id", "version"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      if (dialect === "sqlite") {
        for (const trigger of ["insert", "update", "delete"]) {
          await sql.raw(`drop trigger if exists properties_rtree_${trigger}`).execute(db);
        }
        await sql`drop table if exists properties_rtree`.execute(db);
      } else {
        await sql`drop index if exists properties_bbox`.execute(db);
      }
      await db.schema.dropTable("property_versions").execute();
      for (const column of [...LOT_BOX, "lot_drawn", "version_cause", "version_at", "version"]) {
        await db.schema.alterTable("properties").dropColumn(column).execute();
      }
    },
  };
}

/**
 * The properties' lot boxes under a spatial index, as the geodata's boxes are (migration 0002): an import finds
 * the records under what it changed through it, however many properties there are. A property has a box once it
 * has a record; SQLite's R*Tree holds only those.
 */
async function lotBoxIndex(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`create index properties_bbox on properties
      using gist (box(point(lot_min_lon, lot_min_lat), point(lot_max_lon, lot_max_lat)))`.execute(db);
    return;
  }
  const box = "new.lot_min_lon, new.lot_max_lon, new.lot_min_lat, new.lot_max_lat";
  const put = `insert into properties_rtree select new.property_id, ${box} where new.lot_min_lon is not null;`;
  await sql`create virtual table properties_rtree using rtree(id, min_lon, max_lon, min_lat, max_lat)`.execute(db);
  await sql`insert into properties_rtree select property_id, lot_min_lon, lot_max_lon, lot_min_lat, lot_max_lat
    from properties where lot_min_lon is not null`.execute(db);
  await sql.raw(`create trigger properties_rtree_insert after insert on properties begin ${put} end`).execute(db);
  await sql
    .raw(`create trigger properties_rtree_update after update of lot_min_lon, lot_min_lat, lot_max_lon, lot_max_lat
      on properties begin delete from properties_rtree where id = new.property_id; ${put} end`)
    .execute(db);
  await sql
    .raw(`create trigger properties_rtree_delete after delete on properties begin
      delete from properties_rtree where id = old.property_id; end`)
    .execute(db);
}

async function fillLotBoxes(db: Kysely<Schema>): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom("properties")
      .select(["property_id", "record", "lon", "lat"])
      .where("property_id", ">", after)
      .where("record", "is not", null)
      .orderBy("property_id")
      .limit(RECORDS_PER_STEP)
      .execute();
    const last = rows.at(-1);
    if (!last) return;
    for (const row of rows) {
      const lot = storedLotBox(JSON.parse(row.record ?? "{}") as StoredRecord, [row.lon ?? 0, row.lat ?? 0]);
      await db.updateTable("properties").set(lotBoxColumns(lot)).where("property_id", "=", row.property_id).execute();
    }
    after = last.property_id;
  }
}
