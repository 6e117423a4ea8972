import type { Position } from "../types.js";
import type { Pt } from "./planar.js";

/**
 * Where the generated neighbourhood lies: farmland in Story County, Iowa, between the real towns of Nevada and
 * Maxwell and some 10 km or more from the county's lines (south about 41.863°, east about -93.231°), so county
 * and state look-ups on it give one answer and no real town lies under it. The town name is made up; the ZIP
 * code is that of Nevada, Iowa, the post office nearest the site.
 */
export const DEMO_LOCATION = {
  longitude: -93.38,
  latitude: 41.96,
  county: "Story County",
  countyFips: "19169",
  state: "Iowa",
  stateCode: "IA",
  city: "FAIRVIEW",
  postcode: "50201",
} as const;

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS = 6_371_008.8;

/** 7 decimal places: about a centimetre, finer than any survey the data pretends to come from. */
const DECIMALS = 1e7;

const round = (value: number): number => Math.round(value * DECIMALS) / DECIMALS;

const METRES_PER_DEGREE_LAT = (Math.PI * EARTH_RADIUS) / 180;
const METRES_PER_DEGREE_LON = METRES_PER_DEGREE_LAT * Math.cos((DEMO_LOCATION.latitude * Math.PI) / 180);

/**
 * Turns plane metres into WGS 84 longitude/latitude: the plat's rotation about the centre, then an
 * equirectangular projection at the centre's latitude. Across a kilometre it strays a few centimetres at most
 * from a geodesic one, and being affine it keeps convexity, containment and ring orientation.
 */
export function projection(rotation: number): (p: Pt) => Position {
  const cos = Math.cos(rotation);
  const sin = Math.sin(rotation);
  return (p) => [
    round(DEMO_LOCATION.longitude + (p[0] * cos - p[1] * sin) / METRES_PER_DEGREE_LON),
    round(DEMO_LOCATION.latitude + (p[0] * sin + p[1] * cos) / METRES_PER_DEGREE_LAT),
  ];
}

/** Longitude/latitude to metres east and north of the centre (no rotation, no rounding), for measuring. */
export function toMetres([lon = 0, lat = 0]: Position): Pt {
  return [
    (lon - DEMO_LOCATION.longitude) * METRES_PER_DEGREE_LON,
    (lat - DEMO_LOCATION.latitude) * METRES_PER_DEGREE_LAT,
  ];
}

/** The inverse of `toMetres`. */
export function fromMetres([x, y]: Pt): Position {
  return [DEMO_LOCATION.longitude + x / METRES_PER_DEGREE_LON, DEMO_LOCATION.latitude + y / METRES_PER_DEGREE_LAT];
}
