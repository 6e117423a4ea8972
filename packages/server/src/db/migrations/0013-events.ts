import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.js";
import { createTableWithId } from "./create-table-with-id.js";

/**
 * Catastrophe events: the area each struck (its polygons cut into parts of a few hundred positions, with their
 * boxes), and the properties of every organization that it met, found when the event was imported. No query reads
 * the parts by box yet, so they have no spatial index to keep up.
 */
export function events(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("events")
        .addColumn("event_id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("peril", "text", (c) => c.notNull())
        .addColumn("date", "text")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("summary", "text", (c) => c.notNull())
        .addColumn("imported_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("events_by_time").on("events").columns(["imported_at", "event_id"]).execute();

      await createTableWithId(db, dialect, "event_areas", "area_id")
        .addColumn("event_id", "text", (c) => c.notNull().references("events.event_id").onDelete("cascade"))
        .addColumn("geometry", dialect === "sqlite" ? "blob" : "bytea", (c) => c.notNull())
        .addColumn("intensity", "double precision")
        .addColumn("min_lon", "double precision", (c) => c.notNull())
        .addColumn("min_lat", "double precision", (c) => c.notNull())
        .addColumn("max_lon", "double precision", (c) => c.notNull())
        .addColumn("max_lat", "double precision", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("event_areas_by_event").on("event_areas").column("event_id").execute();

      await db.schema
        .createTable("event_impacts")
        .addColumn("event_id", "text", (c) => c.notNull().references("events.event_id").onDelete("cascade"))
        .addColumn("org_id", "text", (c) => c.notNull().references("organizations.org_id").onDelete("cascade"))
        .addColumn("property_id", "integer", (c) =>
          c.notNull().references("properties.property_id").onDelete("cascade"),
        )
        .addColumn("parcel_share_inside", "double precision")
        .addColumn("buildings_inside", "integer", (c) => c.notNull())
        .addColumn("buildings_total", "integer", (c) => c.notNull())
        .addColumn("intensity", "double precision")
        .addPrimaryKeyConstraint("event_impacts_key", ["event_id", "org_id", "property_id"])
        .execute();
      await db.schema.createIndex("event_impacts_by_property").on("event_impacts").column("property_id").execute();
      // An event's candidates are the properties of the parcels in its extent.
      await db.schema.createIndex("properties_by_parcel").on("properties").column("parcel_id").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("properties_by_parcel").execute();
      await db.schema.dropTable("event_impacts").execute();
      await db.schema.dropTable("event_areas").execute();
      await db.schema.dropTable("events").execute();
    },
  };
}
