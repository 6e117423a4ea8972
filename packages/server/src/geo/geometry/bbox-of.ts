import { bbox } from "@turf/bbox";
import type { BBox, Geometry } from "../types.js";

/**
 * The bounding box `[minLon, minLat, maxLon, maxLat]` of a geometry's positions (any `bbox` member the geometry
 * carries is ignored and recomputed). An empty geometry has `[Infinity, Infinity, -Infinity, -Infinity]`, which
 * meets nothing. A geometry crossing the antimeridian gets a box spanning the long way round.
 *
 * @example
 * bboxOf({ type: "LineString", coordinates: [[-71.06, 42.36], [-71.05, 42.35]] }); //= [-71.06, 42.35, -71.05, 42.36]
 */
export function bboxOf(geometry: Geometry): BBox {
  const [minLon, minLat, maxLon, maxLat] = bbox(geometry, { recompute: true });
  return [minLon, minLat, maxLon, maxLat];
}
