import geographiclib from "geographiclib-geodesic";

/**
 * Karney's geodesics on the WGS 84 ellipsoid (GeographicLib), the one source of every length and area in this
 * folder. geographiclib-geodesic is a CommonJS module, so it is imported whole.
 */
export const WGS84 = geographiclib.Geodesic.WGS84;

/** The output masks of `Inverse`, `Direct` and `Position`. */
export const GEODESIC = geographiclib.Geodesic;

/** Semi-major axis (equatorial radius), metres. */
export const SEMI_MAJOR_AXIS_M = WGS84.a;

/** First eccentricity squared. */
export const ECCENTRICITY_SQUARED = WGS84.f * (2 - WGS84.f);

/** The smallest radius of curvature anywhere on the ellipsoid (the meridian's, at the equator): b²/a, metres. */
export const SMALLEST_RADIUS_OF_CURVATURE_M = SEMI_MAJOR_AXIS_M * (1 - ECCENTRICITY_SQUARED);

/** Mean radius (2a + b) / 3, metres; used only where a spherical approximation steers an exact computation. */
export const MEAN_RADIUS_M = SEMI_MAJOR_AXIS_M * (1 - WGS84.f / 3);

/** Earth-centred, earth-fixed Cartesian coordinates, metres. */
export type Cartesian = [number, number, number];

/** A longitude/latitude (degrees) as earth-centred Cartesian coordinates on the ellipsoid's surface. */
export function toCartesian(lon: number, lat: number): Cartesian {
  const xyz: Cartesian = [0, 0, 0];
  cartesianInto(xyz, 0, lon, lat);
  return xyz;
}

/**
 * {@link toCartesian} written into `out` at `at`: an import measures millions of positions, and an array a position
 * was a tenth of what a building's thread allocated.
 */
export function cartesianInto(out: Float64Array | number[], at: number, lon: number, lat: number): void {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lon * Math.PI) / 180;
  const sinPhi = Math.sin(phi);
  const n = SEMI_MAJOR_AXIS_M / Math.sqrt(1 - ECCENTRICITY_SQUARED * sinPhi * sinPhi);
  const cosPhi = Math.cos(phi);
  out[at] = n * cosPhi * Math.cos(lambda);
  out[at + 1] = n * cosPhi * Math.sin(lambda);
  out[at + 2] = n * (1 - ECCENTRICITY_SQUARED) * sinPhi;
}
