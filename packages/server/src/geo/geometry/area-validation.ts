import type { Area } from "../types.js";

// Why validateArea rejects a geometry. Each value is its own name, a stable machine code.

/** Not a GeoJSON Polygon or MultiPolygon: another geometry type, or not a geometry at all. */
export const NOT_POLYGONAL = "NOT_POLYGONAL";
/** The coordinates are not nested arrays of positions, or a position is not a finite longitude in [-180, 180] and latitude in [-90, 90]. */
export const BAD_COORDINATES = "BAD_COORDINATES";
/** A ring (exterior or hole) has fewer than 3 distinct positions: it is not a ring. */
export const TOO_FEW_POSITIONS = "TOO_FEW_POSITIONS";
/** The geometry encloses no area: every exterior ring lies on one line or retraces itself. */
export const ZERO_AREA = "ZERO_AREA";
/** A hole lies outside its exterior ring, and inside no other polygon of the MultiPolygon it could belong to. */
export const HOLE_OUTSIDE_SHELL = "HOLE_OUTSIDE_SHELL";
/** Nothing is left: no rings at all, or holes that cover their exteriors. */
export const EMPTY = "EMPTY";
/** Re-noding failed: polygon-clipping could not make a valid geometry of it. */
export const UNREPAIRABLE = "UNREPAIRABLE";
/**
 * Rings cross, touch or overlap themselves or each other, a hole lies in another hole or in another polygon, or
 * polygons overlap: only when re-noding was not asked for (`validateArea(geometry, { renode: false })`).
 */
export const NOT_SIMPLE = "NOT_SIMPLE";

export type AreaInvalidReason =
  | typeof NOT_POLYGONAL
  | typeof BAD_COORDINATES
  | typeof TOO_FEW_POSITIONS
  | typeof ZERO_AREA
  | typeof HOLE_OUTSIDE_SHELL
  | typeof EMPTY
  | typeof UNREPAIRABLE
  | typeof NOT_SIMPLE;

// What validateArea repaired. Each is listed once, in the order the repairs ran.

/** Positions had an elevation (or more) beyond longitude and latitude; only longitude and latitude are kept. */
export const DROPPED_ELEVATION = "DROPPED_ELEVATION";
/** A ring did not end where it began; its first position was repeated at the end. */
export const CLOSED_RING = "CLOSED_RING";
/** A ring repeated a position immediately; the repeat was dropped. */
export const DROPPED_DUPLICATE_POSITIONS = "DROPPED_DUPLICATE_POSITIONS";
/** A hole had zero area (its positions on one line) and was dropped: it removed nothing. */
export const DROPPED_EMPTY_HOLE = "DROPPED_EMPTY_HOLE";
/** A polygon of a MultiPolygon had zero area and was dropped; the other polygons stand. */
export const DROPPED_EMPTY_POLYGON = "DROPPED_EMPTY_POLYGON";
/** A ring ran the wrong way and was reversed: RFC 7946 wants exteriors counter-clockwise, holes clockwise. */
export const REWOUND = "REWOUND";
/** A hole lay outside its own exterior but inside another polygon of the MultiPolygon, and was moved there. */
export const MOVED_HOLE = "MOVED_HOLE";
/**
 * Rings crossed or touched themselves or each other, or polygons overlapped or shared edges; the geometry was
 * re-noded as its union with itself (polygon-clipping; a self-crossing ring is read by the non-zero rule, so a
 * bow-tie becomes two triangles, and the part of a hole outside its exterior is dropped).
 */
export const RENODED = "RENODED";
/** The result is one polygon, returned as a Polygon rather than a MultiPolygon. */
export const UNWRAPPED_MULTIPOLYGON = "UNWRAPPED_MULTIPOLYGON";

export type AreaRepair =
  | typeof DROPPED_ELEVATION
  | typeof CLOSED_RING
  | typeof DROPPED_DUPLICATE_POSITIONS
  | typeof DROPPED_EMPTY_HOLE
  | typeof DROPPED_EMPTY_POLYGON
  | typeof REWOUND
  | typeof MOVED_HOLE
  | typeof RENODED
  | typeof UNWRAPPED_MULTIPOLYGON;

/** A rejection: the reason code and a sentence naming the ring or position at fault. */
export interface AreaInvalid {
  valid: false;
  reason: AreaInvalidReason;
  detail: string;
}

/** What {@link validateArea} answers: a valid area and the repairs it took, or why there is none. */
export type AreaValidation = { valid: true; geometry: Area; repairs: AreaRepair[] } | AreaInvalid;

export function invalid(reason: AreaInvalidReason, detail: string): AreaInvalid {
  return { valid: false, reason, detail };
}
