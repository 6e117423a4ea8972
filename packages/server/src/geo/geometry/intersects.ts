import { booleanIntersects } from "@turf/boolean-intersects";
import type { Area, Geometry } from "../types.js";
import { areasMeet } from "./areas-meet.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";

/**
 * Whether two geometries share at least one point: the exact test to run after a bounding-box prefilter. Touching
 * counts (two lots sharing a lot line intersect). Edges are straight in longitude/latitude, as GeoJSON draws them:
 * two areas by {@link areasMeet}, anything else by turf's `booleanIntersects`.
 *
 * @example
 * intersects(parcel, floodZone); //= true when any part of the parcel is in the zone or on its edge
 */
export function intersects(a: Geometry, b: Geometry): boolean {
  if (!bboxesMeet(bboxOf(a), bboxOf(b))) return false;
  return isArea(a) && isArea(b) ? areasMeet(a, b) : booleanIntersects(a, b);
}

function isArea(geometry: Geometry): geometry is Area {
  return geometry.type === "Polygon" || geometry.type === "MultiPolygon";
}
