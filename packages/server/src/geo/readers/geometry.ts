import type { Geometry, Position } from "../types.js";
import type { Reprojection } from "./crs.js";
import { isJsonObject, messageOf, preview } from "./json-value.js";

/** How deep each geometry type nests its positions: a Point's coordinates are one position, a Polygon's rings of them. */
const NESTING = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 } as const;

type CoordinateType = keyof typeof NESTING;

/** The names of the GeoJSON geometry types. */
export function isGeometryType(type: unknown): boolean {
  return type === "GeometryCollection" || (typeof type === "string" && Object.hasOwn(NESTING, type));
}

/** Thrown inside this file only, to unwind from deep in the coordinates with the reason. */
class Unreadable extends Error {}

/**
 * Checks a GeoJSON geometry's structure (its type, and positions of finite numbers nested as deep as the type says)
 * and returns it in WGS 84: a copy reprojected when `reproject` is given, otherwise its own arrays (never changed),
 * and with every position checked to be a longitude in [−180, 180] and a latitude in [−90, 90]. Extra position
 * elements (z) are kept as they are. Whether rings close or polygons are valid is not checked here.
 */
export function wgs84Geometry(
  value: unknown,
  reproject: Reprojection | null,
): { geometry: Geometry; error?: undefined } | { error: string } {
  try {
    return { geometry: geometry(value, reproject) };
  } catch (thrown) {
    if (thrown instanceof Unreadable) return { error: thrown.message };
    throw thrown;
  }
}

function geometry(value: unknown, reproject: Reprojection | null): Geometry {
  if (!isJsonObject(value)) throw new Unreadable(`the geometry is ${preview(value)}, not a GeoJSON geometry object`);
  const { type } = value;
  if (type === "GeometryCollection") {
    if (!Array.isArray(value.geometries)) throw new Unreadable("a GeometryCollection without a geometries array");
    return { type, geometries: value.geometries.map((member) => geometry(member, reproject)) };
  }
  if (typeof type !== "string" || !Object.hasOwn(NESTING, type)) {
    throw new Unreadable(`unknown geometry type ${preview(type)}`);
  }
  const coordinateType = type as CoordinateType;
  const coordinates = nested(value.coordinates, NESTING[coordinateType], coordinateType, reproject);
  return { type: coordinateType, coordinates } as Geometry;
}

function nested(value: unknown, depth: number, type: CoordinateType, reproject: Reprojection | null): unknown {
  if (depth === 0) return position(value, type, reproject);
  if (!Array.isArray(value)) {
    throw new Unreadable(`the coordinates of a ${type} hold ${preview(value)} where an array was expected`);
  }
  if (reproject) return value.map((member) => nested(member, depth - 1, type, reproject));
  // In WGS 84 already: checked where they are, not copied. A state's flood zones are millions of positions.
  for (const member of value) nested(member, depth - 1, type, null);
  return value;
}

function position(value: unknown, type: CoordinateType, reproject: Reprojection | null): Position {
  if (!Array.isArray(value) || value.length < 2 || !value.every(Number.isFinite)) {
    throw new Unreadable(`a ${type} holds ${preview(value)} where a position [x, y] of finite numbers was expected`);
  }
  let lon = value[0] as number;
  let lat = value[1] as number;
  if (reproject) {
    try {
      [lon, lat] = reproject(lon, lat);
    } catch (thrown) {
      throw new Unreadable(`cannot reproject ${preview(value)}: ${messageOf(thrown)}`);
    }
  }
  if (!(Math.abs(lon) <= 180 && Math.abs(lat) <= 90)) {
    throw new Unreadable(
      reproject
        ? `${preview(value)} reprojects to ${preview([lon, lat])}, outside longitude/latitude; is the coordinate system right?`
        : `${preview(value)} is not a WGS 84 longitude/latitude; give the file's coordinate system with --crs`,
    );
  }
  if (!reproject) return value as Position;
  return value.length > 2 ? [lon, lat, ...(value.slice(2) as number[])] : [lon, lat];
}
