import type { Position } from "../types.js";
import { latOf, lonOf } from "./positions.js";
import { GEODESIC, WGS84 } from "./wgs84.js";

/**
 * The length in metres of the shortest path between two positions on the WGS 84 ellipsoid (Karney's solution of
 * the inverse geodesic problem, accurate to about 15 nanometres).
 *
 * @example
 * geodesicDistance([174.81, -41.32], [-5.5, 40.96]); //= 19959679.267 (Wellington to Salamanca)
 */
export function geodesicDistance(a: Position, b: Position): number {
  return WGS84.Inverse(latOf(a), lonOf(a), latOf(b), lonOf(b), GEODESIC.DISTANCE).s12 ?? Number.NaN;
}
