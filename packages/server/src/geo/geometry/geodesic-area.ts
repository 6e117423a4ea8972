import type { Area } from "../types.js";
import { polygonsOf } from "./positions.js";
import { ringGeodesics } from "./ring-geodesics.js";

/**
 * The area in square metres on the WGS 84 ellipsoid (GeographicLib's `PolygonArea`, exact to about a square
 * millimetre for a parcel): each polygon's exterior less its holes, the polygons of a MultiPolygon summed. Edges
 * are geodesics. Ring orientation does not matter. Expects a valid area (see {@link validateArea}): overlapping
 * parts would be counted twice.
 *
 * @example
 * geodesicArea({ type: "Polygon", coordinates: [[[0, 0], [0.001, 0], [0.001, 0.001], [0, 0.001], [0, 0]]] });
 * //= 12309.07… (m², at the equator)
 */
export function geodesicArea(area: Area): number {
  let total = 0;
  for (const [exterior, ...holes] of polygonsOf(area)) {
    if (exterior === undefined) continue;
    total += ringGeodesics(exterior).area;
    for (const hole of holes) total -= ringGeodesics(hole).area;
  }
  return total;
}
