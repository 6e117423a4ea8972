import type { Geometry, Position } from "../types.js";

/**
 * Well-Known Binary (ISO/OGC simple features): how geometry was stored before it was packed (`geometry-codec.ts`),
 * what the migrations that wrote it still read and write, and what a GeoPackage holds. Written little-endian in two
 * dimensions, a position two float64s, longitude then latitude; read in either byte order, z and m skipped.
 */

/** The geometry types' codes in WKB, which packed geometry's tag bytes build on too. */
export const TYPE_CODES = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
} as const;

const LITTLE_ENDIAN = 1;

/** The WKB of a GeoJSON geometry, as a Buffer: what both database drivers bind as a binary value. */
export function encodeWkb(geometry: Geometry): Buffer {
  const view = new DataView(new ArrayBuffer(wkbLength(geometry)));
  const end = write(view, 0, geometry);
  if (end !== view.byteLength) throw new Error(`WKB length ${end} ≠ ${view.byteLength}`);
  return Buffer.from(view.buffer);
}

/** The GeoJSON geometry of a WKB value, as {@link encodeWkb} writes it (either byte order is read). */
export function decodeWkb(bytes: Uint8Array): Geometry {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [geometry, end] = read(view, 0);
  if (end !== bytes.byteLength) throw new Error(`WKB has ${bytes.byteLength - end} bytes after its geometry`);
  return geometry;
}

const HEADER = 1 + 4;
const COUNT = 4;
const POSITION = 16;

/** How many bytes the WKB of a geometry takes. */
export function wkbLength(geometry: Geometry): number {
  switch (geometry.type) {
    case "Point":
      return HEADER + POSITION;
    case "LineString":
    case "MultiPoint":
      return (
        HEADER + COUNT + geometry.coordinates.length * (geometry.type === "MultiPoint" ? HEADER + POSITION : POSITION)
      );
    case "Polygon":
    case "MultiLineString":
      return HEADER + ringsLength(geometry.coordinates, geometry.type === "MultiLineString" ? HEADER : 0);
    case "MultiPolygon":
      return HEADER + COUNT + geometry.coordinates.reduce((sum, polygon) => sum + HEADER + ringsLength(polygon, 0), 0);
    case "GeometryCollection":
      return HEADER + COUNT + geometry.geometries.reduce((sum, member) => sum + wkbLength(member), 0);
  }
}

/** A count, then each ring or line: its own header when it is a geometry of its own, its count, its positions. */
function ringsLength(rings: readonly (readonly Position[])[], memberHeader: number): number {
  return COUNT + rings.reduce((sum, ring) => sum + memberHeader + COUNT + ring.length * POSITION, 0);
}

function writeHeader(view: DataView, at: number, type: keyof typeof TYPE_CODES): number {
  view.setUint8(at, LITTLE_ENDIAN);
  view.setUint32(at + 1, TYPE_CODES[type], true);
  return at + HEADER;
}

function writePositions(view: DataView, at: number, positions: readonly Position[]): number {
  view.setUint32(at, positions.length, true);
  let offset = at + COUNT;
  for (const position of positions) {
    view.setFloat64(offset, position[0] ?? Number.NaN, true);
    view.setFloat64(offset + 8, position[1] ?? Number.NaN, true);
    offset += POSITION;
  }
  return offset;
}

function writeRings(view: DataView, at: number, rings: readonly (readonly Position[])[]): number {
  view.setUint32(at, rings.length, true);
  let offset = at + COUNT;
  for (const ring of rings) offset = writePositions(view, offset, ring);
  return offset;
}

function write(view: DataView, at: number, geometry: Geometry): number {
  const offset = writeHeader(view, at, geometry.type);
  switch (geometry.type) {
    case "Point":
      view.setFloat64(offset, geometry.coordinates[0] ?? Number.NaN, true);
      view.setFloat64(offset + 8, geometry.coordinates[1] ?? Number.NaN, true);
      return offset + POSITION;
    case "LineString":
      return writePositions(view, offset, geometry.coordinates);
    case "Polygon":
      return writeRings(view, offset, geometry.coordinates);
    case "MultiPoint":
      return writeMembers(
        view,
        offset,
        geometry.coordinates.map((coordinates) => ({ type: "Point", coordinates })),
      );
    case "MultiLineString":
      return writeMembers(
        view,
        offset,
        geometry.coordinates.map((coordinates) => ({ type: "LineString", coordinates })),
      );
    case "MultiPolygon":
      return writeMembers(
        view,
        offset,
        geometry.coordinates.map((coordinates) => ({ type: "Polygon", coordinates })),
      );
    case "GeometryCollection":
      return writeMembers(view, offset, geometry.geometries);
  }
}

/** A count, then each member as a geometry of its own: how every multi-part type and a collection are written. */
function writeMembers(view: DataView, at: number, members: readonly Geometry[]): number {
  view.setUint32(at, members.length, true);
  let offset = at + COUNT;
  for (const member of members) offset = write(view, offset, member);
  return offset;
}

/**
 * A type code's geometry type and the bytes of each position: ISO codes add 1000 for z, 2000 for m and 3000 for both
 * (as GeoPackages and PostGIS's ISO output write them), extended WKB sets the top bits instead. Positions are kept in
 * two dimensions; z and m are skipped.
 */
function typeOf(raw: number): { code: number; positionBytes: number } {
  const z = (raw & 0x8000_0000) !== 0;
  const m = (raw & 0x4000_0000) !== 0;
  const iso = raw & 0x0fff_ffff;
  const dimensions = Math.floor(iso / 1000);
  if (dimensions > 3) throw new Error(`WKB: geometry type ${raw >>> 0} is not read here`);
  const extra =
    (z || dimensions === 1 || dimensions === 3 ? 1 : 0) + (m || dimensions === 2 || dimensions === 3 ? 1 : 0);
  return { code: iso % 1000, positionBytes: POSITION + 8 * extra };
}

/** Reads one geometry at `at`; answers it and the offset after it. */
function read(view: DataView, at: number): [Geometry, number] {
  const little = view.getUint8(at) === LITTLE_ENDIAN;
  const { code, positionBytes } = typeOf(view.getUint32(at + 1, little));
  let offset = at + HEADER;
  const count = () => {
    const value = view.getUint32(offset, little);
    offset += COUNT;
    return value;
  };
  const position = (): Position => {
    const value = [view.getFloat64(offset, little), view.getFloat64(offset + 8, little)];
    offset += positionBytes;
    return value;
  };
  const positions = () => Array.from({ length: count() }, position);
  const members = <T extends Geometry>(type: T["type"]): T[] =>
    Array.from({ length: count() }, () => {
      const [member, end] = read(view, offset);
      if (member.type !== type) throw new Error(`WKB: a ${member.type} where a ${type} belongs`);
      offset = end;
      return member as T;
    });
  switch (code) {
    case TYPE_CODES.Point:
      return [{ type: "Point", coordinates: position() }, offset];
    case TYPE_CODES.LineString:
      return [{ type: "LineString", coordinates: positions() }, offset];
    case TYPE_CODES.Polygon:
      return [{ type: "Polygon", coordinates: Array.from({ length: count() }, positions) }, offset];
    case TYPE_CODES.MultiPoint:
      return [{ type: "MultiPoint", coordinates: members<Point>("Point").map((point) => point.coordinates) }, offset];
    case TYPE_CODES.MultiLineString:
      return [
        {
          type: "MultiLineString",
          coordinates: members<LineString>("LineString").map((line) => line.coordinates),
        },
        offset,
      ];
    case TYPE_CODES.MultiPolygon:
      return [
        { type: "MultiPolygon", coordinates: members<Polygon>("Polygon").map((polygon) => polygon.coordinates) },
        offset,
      ];
    case TYPE_CODES.GeometryCollection: {
      const geometries = Array.from({ length: count() }, () => {
        const [member, end] = read(view, offset);
        offset = end;
        return member;
      });
      return [{ type: "GeometryCollection", geometries }, offset];
    }
    default:
      throw new Error(`WKB: geometry type ${code} is not read here`);
  }
}

type Point = Extract<Geometry, { type: "Point" }>;
type LineString = Extract<Geometry, { type: "LineString" }>;
type Polygon = Extract<Geometry, { type: "Polygon" }>;
