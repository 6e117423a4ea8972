import polygonClipping from "polygon-clipping";
import type { Area, BBox } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import { clipToBox } from "./clip-to-box.js";
import { geodesicArea } from "./geodesic-area.js";
import { polygonsOf, vertexCount } from "./positions.js";

/** Below this many vertices an area goes to polygon-clipping whole: cutting it first would not pay. */
const CUT_FROM_VERTICES = 64;

/**
 * The area in square metres (WGS 84, as {@link geodesicArea}) of the overlap of two areas; 0 when they are
 * disjoint or only touch (a shared lot line has no area). The overlap is cut by polygon-clipping, which works in
 * floating point: turf's `intersect` gives the same answer through arbitrary-precision numbers at about fifty
 * times the cost, and this runs once per candidate parcel of every imported building. A large area (a flood zone
 * against a parcel) is first cut down to the small one's surroundings ({@link clipToBox}), so the cost follows
 * the parcel, not the zone.
 *
 * @example
 * intersectionArea(footprint, parcel) / geodesicArea(footprint); //= the parcel's share of the building
 */
export function intersectionArea(a: Area, b: Area): number {
  if (!bboxesMeet(bboxOf(a), bboxOf(b))) return 0;
  const [small, large] = vertexCount(a) <= vertexCount(b) ? [a, b] : [b, a];
  const largePolygons =
    vertexCount(large) >= CUT_FROM_VERTICES ? clipToBox(large, around(bboxOf(small))) : polygonsOf(large);
  if (largePolygons.length === 0) return 0;
  const overlap = polygonClipping.intersection(
    polygonsOf(small) as polygonClipping.MultiPolygon,
    largePolygons as polygonClipping.MultiPolygon,
  );
  return geodesicArea({ type: "MultiPolygon", coordinates: overlap });
}

/** A box around `box` with a margin, so that a ring cut to it runs along its edges well clear of the shape inside. */
function around([west, south, east, north]: BBox): BBox {
  const margin = Math.max(east - west, north - south) * 0.01 + 1e-7;
  return [west - margin, south - margin, east + margin, north + margin];
}
