import { bboxPolygon } from "../geometry/bbox-polygon.js";
import { intersects } from "../geometry/index.js";
import { type Building, toBuilding } from "../store/geo-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";
import { type Capped, collectMatches } from "./collect-matches.js";

/** The building footprints meeting a box (touching counts), in id order, at most `limit` of them. */
export async function buildingsMeetingBBox(
  { db, dialect }: GeoSource,
  bbox: BBox,
  limit: number,
): Promise<Capped<Building>> {
  const area = bboxPolygon(bbox);
  return collectMatches(
    async (afterId, batch) =>
      (
        await db
          .selectFrom("buildings")
          .selectAll()
          .where(bboxMeets(dialect, "buildings", bbox))
          .where("building_id", ">", afterId)
          .orderBy("building_id")
          .limit(batch)
          .execute()
      ).map(toBuilding),
    (building) => building.buildingId,
    (building) => intersects(building.footprint, area),
    limit,
  );
}
