import { bboxPolygon } from "../geometry/bbox-polygon.js";
import { intersects } from "../geometry/index.js";
import type { Building } from "../store/geo-rows.js";
import { readBuildings } from "../store/read-spatial-rows.js";
import { bboxMeets, type GeoSource, idForOrder } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";
import { type Capped, collectMatches } from "./collect-matches.js";

/** The building footprints meeting a box (touching counts), in id order, at most `limit` of them. */
export async function buildingsMeetingBBox(source: GeoSource, bbox: BBox, limit: number): Promise<Capped<Building>> {
  const area = bboxPolygon(bbox);
  return collectMatches(
    (afterId, batch) =>
      readBuildings(source, (query) =>
        query
          .where(bboxMeets(source.dialect, "buildings", bbox))
          .where(idForOrder(source.dialect, "building_id"), ">", afterId)
          .orderBy(idForOrder(source.dialect, "building_id"))
          .limit(batch),
      ),
    (building) => building.buildingId,
    (building) => intersects(building.footprint, area),
    limit,
  );
}
