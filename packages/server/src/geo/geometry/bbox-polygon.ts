import type { BBox, Polygon } from "../types.js";

/**
 * The box `[minLon, minLat, maxLon, maxLat]` as a GeoJSON Polygon (counter-clockwise, RFC 7946), so that a map's
 * view can be met against features with the exact predicates.
 *
 * @example
 * bboxPolygon([0, 0, 1, 1]); //= { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] }
 */
export function bboxPolygon([minLon, minLat, maxLon, maxLat]: BBox): Polygon {
  return {
    type: "Polygon",
    coordinates: [
      [
        [minLon, minLat],
        [maxLon, minLat],
        [maxLon, maxLat],
        [minLon, maxLat],
        [minLon, minLat],
      ],
    ],
  };
}
