import { positionCount } from "../geometry/positions.js";
import type { Geometry, Position } from "../types.js";
import { decodeWkb, TYPE_CODES } from "./wkb.js";

/**
 * Stored geometry is packed: each position on a grid of 10⁻⁹ degree (at most 0.06 mm from where it was read, far
 * below any survey's accuracy), written as the difference from the position before it in zigzag varints. A
 * building's corner lies a few metres from the last one, so most numbers take three bytes instead of WKB's eight,
 * and a state's parcels, buildings and layers take a third of WKB's bytes. Positions given with nine decimals or
 * fewer — GeoJSON as most publishers write it — come back exactly as they were read.
 *
 * The layout: a tag byte (the geometry type's WKB code plus {@link PACKED_TAG}), the grid's decimals, then the
 * body. A body is two numbers for a point; a count and positions for a line or a set of points; a count of rings
 * or lines, each a count and its positions, for a polygon or a set of lines; a count of polygons, each such a
 * polygon, for a multipolygon; a count of members, each with its own tag byte and body, for a collection. The
 * running position carries on through the whole geometry. Rows written before geometry was packed hold WKB,
 * whose first byte is 0 or 1; {@link decodeGeometry} reads both.
 */

/** Decimals of a degree kept: the grid is 10⁻⁹ degree. */
export const STORED_DECIMALS = 9;
const GRID = 10 ** STORED_DECIMALS;

/** Added to a type's WKB code in the tag byte, so that no packed value begins as WKB does (0 or 1). */
const PACKED_TAG = 0x10;

type GeometryType = keyof typeof TYPE_CODES;
const TYPES = Object.fromEntries(Object.entries(TYPE_CODES).map(([type, code]) => [code, type])) as Record<
  number,
  GeometryType
>;

/** The most bytes one position takes: two varints of a difference up to 2⁴⁰, six bytes each, with room to spare. */
const POSITION_BYTES_AT_MOST = 16;

/** The packed bytes of a GeoJSON geometry, as a Buffer of their own: what both database drivers bind as binary. */
export function encodeGeometry(geometry: Geometry): Buffer {
  const writer = Writer.start();
  writer.byte(PACKED_TAG + TYPE_CODES[geometry.type]);
  writer.byte(STORED_DECIMALS);
  writeBody(writer, geometry);
  // A copy of exactly the bytes written: a view of a larger or pooled buffer would cross to a thread whole.
  const bytes = writer.bytes.slice(0, writer.at);
  return Buffer.from(bytes.buffer, 0, bytes.byteLength);
}

/**
 * The geometry with its positions where storing it puts them: what an import measures and compares, so that what
 * it works out (areas, boxes, a building's parcel, pieces merged) is worked out from what it stores, and a row read
 * back gives the same answers. Equal to decoding the geometry's packed bytes; the geometry itself when every
 * position is already there, as GeoJSON written with nine decimals or fewer has it (building new arrays for every
 * position was a tenth of a building import thread's work on each footprint).
 */
export function onStoredGrid<T extends Geometry>(geometry: T): T {
  if (isOnStoredGrid(geometry)) return geometry;
  const snapped = (position: Position): Position => [onGrid(position[0]) / GRID, onGrid(position[1]) / GRID];
  const line = (positions: readonly Position[]) => positions.map(snapped);
  const rings = (lines: readonly (readonly Position[])[]) => lines.map(line);
  switch (geometry.type) {
    case "Point":
      return { ...geometry, coordinates: snapped(geometry.coordinates) };
    case "LineString":
    case "MultiPoint":
      return { ...geometry, coordinates: line(geometry.coordinates) };
    case "Polygon":
    case "MultiLineString":
      return { ...geometry, coordinates: rings(geometry.coordinates) };
    case "MultiPolygon":
      return { ...geometry, coordinates: geometry.coordinates.map(rings) };
    case "GeometryCollection":
      return { ...geometry, geometries: geometry.geometries.map(onStoredGrid) };
  }
  return geometry;
}

/** True when each position is a longitude and latitude that storing leaves as they are. */
function isOnStoredGrid(geometry: Geometry): boolean {
  switch (geometry.type) {
    case "Point":
      return positionOnGrid(geometry.coordinates);
    case "LineString":
    case "MultiPoint":
      return lineOnGrid(geometry.coordinates);
    case "Polygon":
    case "MultiLineString":
      return linesOnGrid(geometry.coordinates);
    case "MultiPolygon":
      for (const polygon of geometry.coordinates) if (!linesOnGrid(polygon)) return false;
      return true;
    case "GeometryCollection":
      return geometry.geometries.every(isOnStoredGrid);
  }
  return false;
}

function linesOnGrid(lines: readonly (readonly Position[])[]): boolean {
  for (const line of lines) if (!lineOnGrid(line)) return false;
  return true;
}

function lineOnGrid(positions: readonly Position[]): boolean {
  for (const position of positions) if (!positionOnGrid(position)) return false;
  return true;
}

/** An elevation is not stored, so a position with one is not as storing leaves it. */
function positionOnGrid(position: Position): boolean {
  return (
    position.length === 2 && onGrid(position[0]) / GRID === position[0] && onGrid(position[1]) / GRID === position[1]
  );
}

/** Stored bytes as a Buffer again, without a copy: a worker thread receives a Buffer sent to it as a Uint8Array. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The GeoJSON geometry of stored bytes: packed, or WKB as rows written before packing hold. */
export function decodeGeometry(bytes: Uint8Array): Geometry {
  if (!isPacked(bytes)) return decodeWkb(bytes);
  const reader = new Reader(bytes);
  const type = reader.type();
  const decimals = reader.byte();
  if (decimals !== STORED_DECIMALS) throw new Error(`stored geometry on a grid of 10^-${decimals}° is not read here`);
  const geometry = readBody(reader, type);
  if (reader.at !== bytes.byteLength)
    throw new Error(`stored geometry has ${bytes.byteLength - reader.at} bytes after it`);
  return geometry;
}

/**
 * How many positions stored bytes hold, counted without building the geometry: what deciding whether to keep a
 * geometry parsed or as its bytes asks of it, for every parcel a building import reads.
 */
export function storedPositionCount(bytes: Uint8Array): number {
  if (!isPacked(bytes)) return positionCount(decodeWkb(bytes));
  const reader = new Reader(bytes);
  const type = reader.type();
  reader.byte();
  return countPositions(reader, type);
}

/**
 * Whether stored bytes hold the same geometry as freshly encoded ones: byte for byte when both are packed; a
 * row written before packing is packed first, so that re-importing unchanged data finds it unchanged.
 */
export function sameStoredGeometry(stored: Uint8Array, encoded: Uint8Array): boolean {
  const packed = isPacked(stored) ? stored : encodeGeometry(decodeWkb(stored));
  return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength).equals(encoded);
}

function isPacked(bytes: Uint8Array): boolean {
  return (bytes[0] ?? 0) > PACKED_TAG;
}

function writeBody(writer: Writer, geometry: Geometry): void {
  switch (geometry.type) {
    case "Point":
      writer.position(geometry.coordinates);
      break;
    case "LineString":
    case "MultiPoint":
      writer.positions(geometry.coordinates);
      break;
    case "Polygon":
    case "MultiLineString":
      writer.rings(geometry.coordinates);
      break;
    case "MultiPolygon":
      writer.count(geometry.coordinates.length);
      for (const polygon of geometry.coordinates) writer.rings(polygon);
      break;
    case "GeometryCollection":
      writer.count(geometry.geometries.length);
      for (const member of geometry.geometries) {
        writer.byte(PACKED_TAG + TYPE_CODES[member.type]);
        writeBody(writer, member);
      }
      break;
  }
}

function readBody(reader: Reader, type: GeometryType): Geometry {
  switch (type) {
    case "Point":
      return { type, coordinates: reader.position() };
    case "LineString":
    case "MultiPoint":
      return { type, coordinates: reader.positions() };
    case "Polygon":
    case "MultiLineString":
      return { type, coordinates: reader.rings() };
    case "MultiPolygon": {
      const polygons: Position[][][] = new Array(reader.count());
      for (let i = 0; i < polygons.length; i++) polygons[i] = reader.rings();
      return { type, coordinates: polygons };
    }
    case "GeometryCollection": {
      const members: Geometry[] = new Array(reader.count());
      for (let i = 0; i < members.length; i++) members[i] = readBody(reader, reader.type());
      return { type, geometries: members };
    }
  }
}

/** {@link readBody}'s walk, skipping each position instead of reading it. */
function countPositions(reader: Reader, type: GeometryType): number {
  switch (type) {
    case "Point":
      reader.skipPositions(1);
      return 1;
    case "LineString":
    case "MultiPoint":
      return reader.skipPositions(reader.count());
    case "Polygon":
    case "MultiLineString":
      return reader.skipRings();
    case "MultiPolygon": {
      let count = 0;
      for (let polygons = reader.count(); polygons > 0; polygons--) count += reader.skipRings();
      return count;
    }
    case "GeometryCollection": {
      let count = 0;
      for (let members = reader.count(); members > 0; members--) count += countPositions(reader, reader.type());
      return count;
    }
  }
}

/**
 * Packs into a buffer that grows as needed; positions are differences from the one before, on the grid. One
 * writer serves every encoding of a thread, each copying out what it wrote: no buffer to allocate per row.
 */
class Writer {
  static #shared = new Writer();
  bytes = new Uint8Array(4096);
  at = 0;
  #lon = 0;
  #lat = 0;

  static start(): Writer {
    const writer = Writer.#shared;
    writer.at = 0;
    writer.#lon = 0;
    writer.#lat = 0;
    return writer;
  }

  byte(value: number): void {
    this.#room(1);
    this.bytes[this.at++] = value;
  }

  count(value: number): void {
    this.#room(POSITION_BYTES_AT_MOST);
    this.#varint(value);
  }

  position(position: Position): void {
    const lon = onGrid(position[0]);
    const lat = onGrid(position[1]);
    this.#room(POSITION_BYTES_AT_MOST);
    this.#varint(zigzag(lon - this.#lon));
    this.#varint(zigzag(lat - this.#lat));
    this.#lon = lon;
    this.#lat = lat;
  }

  positions(positions: readonly Position[]): void {
    this.count(positions.length);
    for (const position of positions) this.position(position);
  }

  rings(rings: readonly (readonly Position[])[]): void {
    this.count(rings.length);
    for (const ring of rings) this.positions(ring);
  }

  #room(bytes: number): void {
    if (this.at + bytes <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + bytes));
    grown.set(this.bytes);
    this.bytes = grown;
  }

  /** A whole number from 0 to 2⁵³, seven bits a byte, low bits first. */
  #varint(value: number): void {
    let rest = value;
    // Below 2³¹ the bit operators are exact, and much faster than division.
    while (rest >= 0x80 && rest < 0x80000000) {
      this.bytes[this.at++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    while (rest >= 0x80) {
      this.bytes[this.at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.at++] = rest;
  }
}

class Reader {
  at = 0;
  #lon = 0;
  #lat = 0;

  constructor(readonly bytes: Uint8Array) {}

  byte(): number {
    const value = this.bytes[this.at++];
    if (value === undefined) throw new Error("stored geometry ends early");
    return value;
  }

  type(): GeometryType {
    const tag = this.byte();
    const type = TYPES[tag - PACKED_TAG];
    if (!type) throw new Error(`stored geometry type tag ${tag} is not read here`);
    return type;
  }

  count(): number {
    return this.#varint();
  }

  position(): Position {
    this.#lon += unzigzag(this.#varint());
    this.#lat += unzigzag(this.#varint());
    return [this.#lon / GRID, this.#lat / GRID];
  }

  // Arrays of their exact length filled by a loop: Array.from with a callback took three times as long, and
  // pushing leaves each array room to grow that parsed shapes kept by the thousand would hold on to.
  positions(): Position[] {
    const positions: Position[] = new Array(this.count());
    for (let i = 0; i < positions.length; i++) positions[i] = this.position();
    return positions;
  }

  rings(): Position[][] {
    const rings: Position[][] = new Array(this.count());
    for (let i = 0; i < rings.length; i++) rings[i] = this.positions();
    return rings;
  }

  /** Passes over `count` positions; returns `count`. */
  skipPositions(count: number): number {
    // Two varints a position; a varint's last byte is the one below 0x80.
    for (let varints = 2 * count; varints > 0; varints--) while (this.byte() >= 0x80);
    return count;
  }

  /** Passes over a count of rings and their positions; returns how many positions they hold. */
  skipRings(): number {
    let count = 0;
    for (let rings = this.count(); rings > 0; rings--) count += this.skipPositions(this.count());
    return count;
  }

  #varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}

/** A coordinate in grid steps. Coordinates are validated on reading; one that is not a number has no place here. */
function onGrid(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value))
    throw new Error(`stored geometry needs finite coordinates, not ${value}`);
  return Math.round(value * GRID);
}

/** Small differences of either sign as small whole numbers: 0, −1, 1, −2, 2 … → 0, 1, 2, 3, 4 … */
function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

function unzigzag(value: number): number {
  return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
}
