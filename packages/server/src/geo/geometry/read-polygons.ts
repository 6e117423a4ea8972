import { type AreaInvalid, BAD_COORDINATES, invalid, NOT_POLYGONAL } from "./area-validation.js";

/** A position reduced to longitude and latitude. */
export type Pair = [number, number];

/** The polygons of a GeoJSON Polygon or MultiPolygon, each as its rings of longitude/latitude pairs. */
export interface ReadPolygons {
  type: "Polygon" | "MultiPolygon";
  polygons: Pair[][][];
  /** Some position had more than two numbers. */
  droppedElevation: boolean;
}

/**
 * Reads an untrusted value as a Polygon or MultiPolygon: the type, the nesting of the coordinates, and every
 * position a finite longitude in [-180, 180] and latitude in [-90, 90]. Copies; never aliases the input: the pairs
 * it makes are read faster than the parser's own arrays (kept as they were, a flood layer's import was slower).
 */
export function readPolygons(geometry: unknown): ReadPolygons | AreaInvalid {
  if (typeof geometry !== "object" || geometry === null || Array.isArray(geometry)) {
    return invalid(NOT_POLYGONAL, "not a GeoJSON geometry object");
  }
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (type !== "Polygon" && type !== "MultiPolygon") {
    const named = typeof type === "string" ? `a ${type}` : "an object without a geometry type";
    return invalid(NOT_POLYGONAL, `${named} is not a Polygon or MultiPolygon`);
  }
  if (!Array.isArray(coordinates)) return invalid(BAD_COORDINATES, "coordinates is not an array");
  const polygonsIn: unknown[] = type === "Polygon" ? [coordinates] : coordinates;
  const polygons: Pair[][][] = [];
  let droppedElevation = false;
  for (const [p, ringsIn] of polygonsIn.entries()) {
    const where = (r: number) => (type === "Polygon" ? `ring ${r + 1}` : `polygon ${p + 1}, ring ${r + 1}`);
    if (!Array.isArray(ringsIn)) return invalid(BAD_COORDINATES, `polygon ${p + 1} is not an array of rings`);
    const rings: Pair[][] = [];
    for (const [r, ringIn] of ringsIn.entries()) {
      if (!Array.isArray(ringIn)) return invalid(BAD_COORDINATES, `${where(r)} is not an array of positions`);
      // By index into an array of its length: a flood zone has a hundred thousand positions to copy.
      const ring: Pair[] = new Array(ringIn.length);
      for (let i = 0; i < ringIn.length; i++) {
        const position = ringIn[i] as number[];
        const problem = positionProblem(position);
        if (problem) return invalid(BAD_COORDINATES, `${where(r)}, position ${i + 1}: ${problem}`);
        if (position.length > 2) droppedElevation = true;
        ring[i] = [position[0] as number, position[1] as number];
      }
      rings.push(ring);
    }
    polygons.push(rings);
  }
  return { type, polygons, droppedElevation };
}

function positionProblem(position: unknown): string | undefined {
  if (!Array.isArray(position) || position.length < 2) return "not an array of longitude and latitude";
  // Read by index: destructuring walked an iterator, an object allocated for each of millions of positions.
  const lon: unknown = position[0];
  const lat: unknown = position[1];
  if (typeof lon !== "number" || !Number.isFinite(lon)) return `longitude ${String(lon)} is not a finite number`;
  if (typeof lat !== "number" || !Number.isFinite(lat)) return `latitude ${String(lat)} is not a finite number`;
  if (lon < -180 || lon > 180) return `longitude ${lon} is outside [-180, 180]`;
  if (lat < -90 || lat > 90) return `latitude ${lat} is outside [-90, 90]`;
  return undefined;
}
