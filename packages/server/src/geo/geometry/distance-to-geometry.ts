import type { Geometry, Position } from "../types.js";
import { distanceToEdges, edgesOf } from "./boundary-distance.js";
import { containsPoint } from "./contains-point.js";
import { geodesicDistance } from "./geodesic-distance.js";

/**
 * The distance in metres on WGS 84 from `point` to the nearest point of `geometry`: 0 inside a polygon (or on its
 * boundary), otherwise the shortest geodesic distance to its edges, holes' edges included; for points, the
 * distance to the nearest one; for a GeometryCollection, to its nearest member. `Infinity` for an empty geometry.
 *
 * Method: each edge is taken as the geodesic between its two positions and the distance to it is found on the
 * ellipsoid itself (Karney's inverse problem, searching along the edge for the foot of the perpendicular), so a
 * distance to a vertex or a point equals {@link geodesicDistance} exactly and no spherical-earth error (up to
 * 0.5 % with turf's `pointToLineDistance`) creeps in. A chord lower bound skips edges that cannot be nearest.
 * Containment uses edges straight in longitude/latitude, as GeoJSON draws them; for property-scale edges the two
 * kinds of edge differ by millimetres.
 *
 * @example
 * distanceToGeometry([-71.06, 42.36], { type: "Point", coordinates: [-71.05, 42.36] }); //= 823.82… (m)
 */
export function distanceToGeometry(point: Position, geometry: Geometry): number {
  switch (geometry.type) {
    case "Point":
      return geodesicDistance(point, geometry.coordinates);
    case "MultiPoint":
      return least(geometry.coordinates, (p) => geodesicDistance(point, p));
    case "LineString":
      return distanceToEdges(point, edgesOf([geometry.coordinates]));
    case "MultiLineString":
      return distanceToEdges(point, edgesOf(geometry.coordinates));
    case "Polygon":
      return containsPoint(geometry, point) ? 0 : distanceToEdges(point, edgesOf(geometry.coordinates));
    case "MultiPolygon":
      return containsPoint(geometry, point) ? 0 : distanceToEdges(point, edgesOf(geometry.coordinates.flat()));
    case "GeometryCollection":
      return least(geometry.geometries, (g) => distanceToGeometry(point, g));
  }
}

function least<T>(items: readonly T[], distance: (item: T) => number): number {
  let best = Number.POSITIVE_INFINITY;
  for (const item of items) best = Math.min(best, distance(item));
  return best;
}
