import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import type { Area, Position } from "../types.js";

/**
 * Whether `point` lies in `area`. **The boundary counts as inside**: a point on a lot line belongs to both lots,
 * and a point on the edge of a hole belongs to the area. Exact for edges drawn straight in longitude/latitude
 * (turf's `booleanPointInPolygon`), as GeoJSON draws them.
 *
 * @example
 * containsPoint(square, [0.0005, 0.0005]); //= true
 * containsPoint(square, [0, 0.0005]); //= true (on the boundary)
 */
export function containsPoint(area: Area, point: Position): boolean {
  return booleanPointInPolygon(point, area);
}
