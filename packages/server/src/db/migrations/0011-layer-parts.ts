import { type Kysely, type Migration, sql } from "kysely";
import { layerPartsOf, writeLayerParts } from "../../geo/store/layer-parts.js";
import { decodeWkb } from "../../geo/store/wkb.js";
import type { Dialect } from "../database.js";
import type { Schema } from "../schema.js";
import { postgresSpatialIndex, sqliteSpatialIndex } from "./0002-geodata.js";
import { createTableWithId } from "./create-table-with-id.js";

/** Features read and cut a step: one may be megabytes. */
const FEATURES_PER_STEP = 50;

/**
 * Large polygons of layers (flood zones, zoning districts) are also stored cut into parts of a few hundred
 * positions under a spatial index of their own (`geo/geometry/subdivide.ts`): an order reads and measures the
 * parts near its lot instead of a whole zone. The layers already imported are cut here.
 */
export function layerParts(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await createTableWithId(db, dialect, "layer_parts", "part_id")
        .addColumn("feature_id", "integer", (c) =>
          c.notNull().references("layer_features.feature_id").onDelete("cascade"),
        )
        .addColumn("geometry", dialect === "sqlite" ? "blob" : "bytea", (c) => c.notNull())
        .addColumn("min_lon", "double precision", (c) => c.notNull())
        .addColumn("min_lat", "double precision", (c) => c.notNull())
        .addColumn("max_lon", "double precision", (c) => c.notNull())
        .addColumn("max_lat", "double precision", (c) => c.notNull())
        .addColumn("import_id", "integer", (c) => c.notNull().references("imports.import_id"))
        .execute();
      await db.schema.createIndex("layer_parts_by_feature").on("layer_parts").column("feature_id").execute();
      if (dialect === "sqlite") await sqliteSpatialIndex(db, "layer_parts", "part_id");
      else await postgresSpatialIndex(db, "layer_parts");
      await db.schema
        .alterTable("layer_features")
        .addColumn("part_count", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await cutStoredLayers(db as Kysely<Schema>);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === "sqlite") await sql`drop table if exists layer_parts_rtree`.execute(db);
      await db.schema.dropTable("layer_parts").execute();
      await db.schema.alterTable("layer_features").dropColumn("part_count").execute();
    },
  };
}

async function cutStoredLayers(db: Kysely<Schema>): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom("layer_features")
      .select(["feature_id", "geometry", "import_id"])
      .where("feature_id", ">", after)
      .orderBy("feature_id")
      .limit(FEATURES_PER_STEP)
      .execute();
    const last = rows.at(-1);
    if (!last) return;
    for (const row of rows) {
      const parts = layerPartsOf(decodeWkb(row.geometry));
      if (!parts) continue;
      await writeLayerParts(db, row.import_id, [{ featureId: row.feature_id, parts }]);
      await db
        .updateTable("layer_features")
        .set({ part_count: parts.length })
        .where("feature_id", "=", row.feature_id)
        .execute();
    }
    after = last.feature_id;
  }
}
