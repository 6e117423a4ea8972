import polygonClipping from "polygon-clipping";
import type { Area } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import { geodesicArea } from "./geodesic-area.js";
import { polygonsOf } from "./positions.js";

/**
 * The area in square metres (WGS 84, as {@link geodesicArea}) of the overlap of two areas; 0 when they are
 * disjoint or only touch (a shared lot line has no area). The overlap is cut by polygon-clipping, which works in
 * floating point: turf's `intersect` gives the same answer through arbitrary-precision numbers at about fifty
 * times the cost, and this runs once per candidate parcel of every imported building.
 *
 * @example
 * intersectionArea(footprint, parcel) / geodesicArea(footprint); //= the parcel's share of the building
 */
export function intersectionArea(a: Area, b: Area): number {
  if (!bboxesMeet(bboxOf(a), bboxOf(b))) return 0;
  const pairs = (area: Area) => polygonsOf(area) as polygonClipping.MultiPolygon;
  return geodesicArea({ type: "MultiPolygon", coordinates: polygonClipping.intersection(pairs(a), pairs(b)) });
}
