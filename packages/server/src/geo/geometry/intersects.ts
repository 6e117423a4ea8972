import { booleanIntersects } from "@turf/boolean-intersects";
import type { Geometry } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";

/**
 * Whether two geometries share at least one point: the exact test to run after a bounding-box prefilter. Touching
 * counts (two lots sharing a lot line intersect). Edges are straight in longitude/latitude, as GeoJSON draws them
 * (turf's `booleanIntersects`).
 *
 * @example
 * intersects(parcel, floodZone); //= true when any part of the parcel is in the zone or on its edge
 */
export function intersects(a: Geometry, b: Geometry): boolean {
  if (!bboxesMeet(bboxOf(a), bboxOf(b))) return false;
  return booleanIntersects(a, b);
}
