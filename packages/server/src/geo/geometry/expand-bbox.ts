import type { BBox } from "../types.js";
import { ECCENTRICITY_SQUARED, GEODESIC, SEMI_MAJOR_AXIS_M, WGS84 } from "./wgs84.js";

/**
 * `bbox` grown by `metres` on every side, so that every point within `metres` (geodesic distance) of any point of
 * the box lies in the result: the prefilter for "within a distance" queries.
 *
 * North and south move along the meridian exactly (a meridian is a geodesic) and stop at ±90°. East and west move
 * by `metres` over the radius of the parallel at the highest latitude the grown box reaches — the narrowest
 * parallel it holds, so the widening is enough everywhere in it. A box that reaches a pole spans all longitudes.
 * Longitudes are clamped to ±180°: a box is not split across the antimeridian. `metres` ≤ 0 (or NaN) grows nothing.
 *
 * @example
 * expandBBox([-71.06, 42.36, -71.06, 42.36], 100);
 * //= [-71.061213…, 42.359099…, -71.058786…, 42.360900…]
 */
export function expandBBox([minLon, minLat, maxLon, maxLat]: BBox, metres: number): BBox {
  if (!(metres > 0)) return [minLon, minLat, maxLon, maxLat];
  const south = moveAlongMeridian(minLat, -metres);
  const north = moveAlongMeridian(maxLat, metres);
  const highest = Math.max(Math.abs(south), Math.abs(north));
  if (highest >= 90) return [-180, south, 180, north];
  const phi = (highest * Math.PI) / 180;
  const sinPhi = Math.sin(phi);
  const parallelRadius = (SEMI_MAJOR_AXIS_M * Math.cos(phi)) / Math.sqrt(1 - ECCENTRICITY_SQUARED * sinPhi * sinPhi);
  const degrees = ((metres / parallelRadius) * 180) / Math.PI;
  if (degrees >= 180) return [-180, south, 180, north];
  return [Math.max(-180, minLon - degrees), south, Math.min(180, maxLon + degrees), north];
}

/** The latitude `metres` north (positive) or south (negative) of `lat` along a meridian, stopping at the pole. */
function moveAlongMeridian(latitude: number, metres: number): number {
  const pole = metres > 0 ? 90 : -90;
  const lat = Math.min(90, Math.max(-90, latitude));
  const toPole = WGS84.Inverse(lat, 0, pole, 0, GEODESIC.DISTANCE).s12 ?? 0;
  if (Math.abs(metres) >= toPole) return pole;
  return WGS84.Direct(lat, 0, metres > 0 ? 0 : 180, Math.abs(metres), GEODESIC.LATITUDE).lat2 ?? pole;
}
