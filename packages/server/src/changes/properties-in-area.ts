import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import type { ChangedArea } from "./changed-area.js";

/** Properties read a statement. */
const PAGE = 1000;

/**
 * The ids of the properties with a record whose lot meets `area`, a page at a time in property id order: one pass over the
 * properties whose lot box meets the area's extent, each then checked against the area itself.
 */
export async function* propertiesInArea(db: Kysely<Schema>, area: ChangedArea): AsyncGenerator<number[]> {
  const extent = area.extent;
  if (!extent) return;
  const [west, south, east, north] = extent;
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom("properties")
      .select(["property_id", "lot_min_lon", "lot_min_lat", "lot_max_lon", "lot_max_lat"])
      .where("property_id", ">", after)
      .where("record", "is not", null)
      .where("lot_max_lon", ">=", west)
      .where("lot_min_lon", "<=", east)
      .where("lot_max_lat", ">=", south)
      .where("lot_min_lat", "<=", north)
      .orderBy("property_id")
      .limit(PAGE)
      .execute();
    const last = rows.at(-1);
    if (!last) return;
    after = last.property_id;
    const meeting = rows.filter((row) =>
      area.meets([row.lot_min_lon ?? 0, row.lot_min_lat ?? 0, row.lot_max_lon ?? 0, row.lot_max_lat ?? 0]),
    );
    if (meeting.length > 0) yield meeting.map((row) => row.property_id);
  }
}
