import type { Area, Position } from "../types.js";
import { distanceToEdges, type Edges, edgesOf } from "./boundary-distance.js";
import { intersects } from "./intersects.js";
import { polygonsOf } from "./positions.js";

/**
 * The distance in metres on WGS 84 between two areas: 0 when they intersect (touching included), otherwise the
 * least distance from a vertex of either to an edge of the other (holes' edges included), which is where the
 * nearest points of two disjoint polygons lie. Edges are geodesics, measured as in {@link distanceToGeometry}.
 * Symmetric.
 *
 * @example
 * distanceBetweenAreas(house, garage); //= 4.2 (m, wall to wall)
 */
export function distanceBetweenAreas(a: Area, b: Area): number {
  if (intersects(a, b)) return 0;
  const ringsOfA = polygonsOf(a).flat();
  const ringsOfB = polygonsOf(b).flat();
  return Math.min(nearest(vertices(ringsOfA), edgesOf(ringsOfB)), nearest(vertices(ringsOfB), edgesOf(ringsOfA)));
}

function nearest(points: Position[], edges: Edges): number {
  let best = Number.POSITIVE_INFINITY;
  for (const point of points) best = Math.min(best, distanceToEdges(point, edges));
  return best;
}

/** The positions of some rings, without the closing repeat of each ring's first position. */
function vertices(rings: Position[][]): Position[] {
  return rings.flatMap((ring) => ring.slice(0, -1));
}
