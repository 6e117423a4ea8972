import type { Area } from "../types.js";
import { polygonsOf } from "./positions.js";
import { ringGeodesics } from "./ring-geodesics.js";

/**
 * The length in metres of the exterior rings on the WGS 84 ellipsoid, summed over the polygons of a
 * MultiPolygon. **Holes do not count**: this is the outline of the lot or footprint (fencing, frontage), not the
 * total length of every boundary. Edges are geodesics.
 *
 * @example
 * geodesicPerimeter({ type: "Polygon", coordinates: [[[0, 0], [0.001, 0], [0.001, 0.001], [0, 0.001], [0, 0]]] });
 * //= 443.78… (m)
 */
export function geodesicPerimeter(area: Area): number {
  let total = 0;
  for (const [exterior] of polygonsOf(area)) {
    if (exterior !== undefined) total += ringGeodesics(exterior).perimeter;
  }
  return total;
}
