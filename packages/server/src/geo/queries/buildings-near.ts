import { bboxOf, distanceBetweenAreas, distanceToGeometry, expandBBox } from "../geometry/index.js";
import { type Building, toBuilding } from "../store/geo-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { Area, LonLat } from "../types.js";

/**
 * Buildings within `metres` of a point or of a footprint (edge to edge; 0 when they touch or overlap), nearest
 * first, each with its distance.
 */
export async function buildingsNear(
  { db, dialect }: GeoSource,
  from: LonLat | Area,
  metres: number,
): Promise<Array<{ building: Building; distanceM: number }>> {
  const box = "type" in from ? bboxOf(from) : bboxOf({ type: "Point", coordinates: from });
  const rows = await db
    .selectFrom("buildings")
    .selectAll()
    .where(bboxMeets(dialect, "buildings", expandBBox(box, metres)))
    .execute();
  return rows
    .map((row) => {
      const building = toBuilding(row);
      const distanceM =
        "type" in from ? distanceBetweenAreas(from, building.footprint) : distanceToGeometry(from, building.footprint);
      return { building, distanceM };
    })
    .filter((hit) => hit.distanceM <= metres)
    .sort((a, b) => a.distanceM - b.distanceM || a.building.buildingId - b.building.buildingId);
}
