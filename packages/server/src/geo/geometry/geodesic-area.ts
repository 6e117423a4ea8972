import type { Area, Position } from "../types.js";
import { LocalPlane } from "./local-plane.js";
import { latOf, lonOf, polygonsOf } from "./positions.js";
import { ringGeodesics } from "./ring-geodesics.js";

/**
 * An area whose every position lies within this many metres of the middle of its box is measured on the plane
 * tangent to the ellipsoid there; a larger one with GeographicLib. Within it the plane's relative error is under
 * 1.3 × 10⁻⁶ (see {@link tangentPlaneArea}): a hundredth of a square metre on a hectare.
 */
const TANGENT_PLANE_RADIUS_M = 10_000;

/**
 * The area in square metres on the WGS 84 ellipsoid: each polygon's exterior less its holes, the polygons of a
 * MultiPolygon summed. Edges are geodesics. Ring orientation does not matter. Expects a valid area (see
 * {@link validateArea}): overlapping parts would be counted twice.
 *
 * A lot or a building (each polygon within 10 km of its middle) is measured on the tangent plane, some 6 times
 * faster than GeographicLib's `PolygonArea` and within 1.3 × 10⁻⁶ of the ellipsoid's area; anything larger by
 * `PolygonArea` itself.
 *
 * @example
 * geodesicArea({ type: "Polygon", coordinates: [[[0, 0], [0.001, 0], [0.001, 0.001], [0, 0.001], [0, 0]]] });
 * //= 12309.07… (m², at the equator)
 */
export function geodesicArea(area: Area): number {
  return tangentPlaneArea(area) ?? geographicLibArea(area);
}

/** The area by GeographicLib's `PolygonArea`, ring by ring. */
export function geographicLibArea(area: Area): number {
  let total = 0;
  for (const [exterior, ...holes] of polygonsOf(area)) {
    if (exterior === undefined) continue;
    total += ringGeodesics(exterior).area;
    for (const hole of holes) total -= ringGeodesics(hole).area;
  }
  return total;
}

/**
 * The area of each polygon's rings taken to the plane tangent to the ellipsoid at the middle of its box (a
 * {@link LocalPlane}), by the shoelace formula; `undefined` when a position lies farther than
 * {@link TANGENT_PLANE_RADIUS_M} from its polygon's middle.
 *
 * Why it stands in for the geodesic area, for positions within D of the middle (ρ ≥ 6,335 km being the ellipsoid's
 * smallest radius of curvature):
 * 1. The plane sees the surface's area shrunk by the cosine of the angle between the surface's normal and the
 *    plane's, and that angle is at most D/ρ (the normal turns by at most 1/ρ radians a metre): a relative error
 *    under (D/ρ)²/2, 1.25 × 10⁻⁶ at 10 km.
 * 2. The plane's edges are the projections of the chords between the positions, and a geodesic edge of length s
 *    strays from its chord by at most s²/(8ρ) along the surface's normal, of which at most a share D/ρ shows on the
 *    plane: each edge adds or takes at most s³D/(8ρ²) m², 3 × 10⁻⁶ m² for a 100 m edge 1 km out, 0.03 m² for a
 *    1 km edge 10 km out.
 * `geodesic-area.test.ts` checks it against GeographicLib on every Cambridge parcel and building.
 */
export function tangentPlaneArea(area: Area): number | undefined {
  let total = 0;
  // Each polygon on the plane at its own middle: the parts of a lot split by a road lie apart.
  for (const [exterior = [], ...holes] of polygonsOf(area)) {
    const plane = new LocalPlane(middleOf(exterior));
    for (const [k, ring] of [exterior, ...holes].entries()) {
      const { area: ringArea, reach } = plane.ringArea(ring);
      if (!(reach <= TANGENT_PLANE_RADIUS_M)) return undefined;
      total += k === 0 ? ringArea : -ringArea;
    }
  }
  return total;
}

/** The middle of a ring's box. */
function middleOf(ring: readonly Position[]): Position {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const position of ring) {
    west = Math.min(west, lonOf(position));
    east = Math.max(east, lonOf(position));
    south = Math.min(south, latOf(position));
    north = Math.max(north, latOf(position));
  }
  return [(west + east) / 2, (south + north) / 2];
}
