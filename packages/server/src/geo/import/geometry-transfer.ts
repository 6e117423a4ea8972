import type { Geometry, Position } from "../types.js";

/**
 * A batch's geometries as they cross to an import thread: every position's longitude and latitude in one
 * `Float64Array`, and the types and array lengths in one `Int32Array`, both handed over rather than copied.
 *
 * Why not post the GeoJSON objects: the structured clone of nested arrays cost about 3 µs a parcel to write on the
 * main thread, which reads the file and writes the rows, and some 10 µs to read on the thread, whose numbers come
 * out boxed, slower for the geometry code to read than the plain doubles the arrays get when they are built here. Measured over 105,000 parcels in batches of 500:
 * 326 ms to clone and 1,020 ms to read back, against 60 ms to pack and 116 ms to unpack.
 *
 * Lossless: each number crosses as the same double. What the layout does not cover — no geometry, a
 * GeometryCollection, a position with more than two numbers (z) — crosses as itself, cloned as before.
 */
export interface PackedGeometries {
  count: number;
  numbers: Float64Array;
  /** Per geometry: its type code, then each array's length, depth first; a negative code is `-1 - index` in `others`. */
  shape: Int32Array;
  others: unknown[];
}

/** How deep each type nests its positions, and its code in `shape` (its index in this list, plus one). */
const PACKED_TYPES = [
  ["Point", 0],
  ["MultiPoint", 1],
  ["LineString", 1],
  ["MultiLineString", 2],
  ["Polygon", 2],
  ["MultiPolygon", 3],
] as const;

const CODE_OF = new Map<string, number>(PACKED_TYPES.map(([type], index) => [type, index + 1]));

/** `geometries` packed for a thread; post the result with {@link transferList} as the transfer list. */
export function packGeometries(geometries: readonly unknown[]): PackedGeometries {
  const writer = new Writer();
  const others: unknown[] = [];
  for (const geometry of geometries) {
    const code = packableCode(geometry);
    if (code === undefined) {
      writer.shape(-1 - others.length);
      others.push(geometry);
      continue;
    }
    writer.shape(code);
    writer.nested((geometry as { coordinates: unknown }).coordinates, depthOf(code));
  }
  return { count: geometries.length, ...writer.done(), others };
}

/** The buffers to hand over with `packed`: after posting, they are the thread's, and empty here. */
export function transferList(packed: PackedGeometries): ArrayBuffer[] {
  return [packed.numbers.buffer as ArrayBuffer, packed.shape.buffer as ArrayBuffer];
}

/** The geometries again, on the thread: GeoJSON objects equal to those packed. */
export function unpackGeometries(packed: PackedGeometries): unknown[] {
  const geometryAt = packedGeometryReader(packed);
  return Array.from({ length: packed.count }, (_, index) => geometryAt(index));
}

/**
 * One geometry of a packed batch at a time, in any order: a thread that works through a batch a few areas at a
 * time builds each one's arrays only when it comes to it, so that they are garbage before the collector runs
 * again rather than copied and promoted with the rest of the batch.
 */
export function packedGeometryReader(packed: PackedGeometries): (index: number) => unknown {
  const { numbers, shape, others } = packed;
  // Where each geometry's lengths and numbers begin: one walk of the lengths, nothing built.
  const shapeStarts = new Int32Array(packed.count);
  const numberStarts = new Int32Array(packed.count);
  let next = 0;
  let number = 0;
  const skip = (depth: number): void => {
    if (depth === 0) {
      number += 2;
      return;
    }
    const length = shape[next++] as number;
    for (let index = 0; index < length; index++) skip(depth - 1);
  };
  for (let index = 0; index < packed.count; index++) {
    shapeStarts[index] = next;
    numberStarts[index] = number;
    const code = shape[next++] as number;
    if (code >= 0) skip(depthOf(code));
  }
  const read = (depth: number): unknown => {
    if (depth === 0) {
      const position: Position = [numbers[number] as number, numbers[number + 1] as number];
      number += 2;
      return position;
    }
    const length = shape[next++] as number;
    const members = new Array(length);
    for (let index = 0; index < length; index++) members[index] = read(depth - 1);
    return members;
  };
  return (index) => {
    next = shapeStarts[index] as number;
    number = numberStarts[index] as number;
    const code = shape[next++] as number;
    if (code < 0) return others[-1 - code];
    const type = PACKED_TYPES[code - 1]?.[0];
    return { type, coordinates: read(depthOf(code)) } as Geometry;
  };
}

function depthOf(code: number): number {
  return PACKED_TYPES[code - 1]?.[1] ?? 0;
}

/** The code of a geometry the layout holds: a coordinate type whose positions are all two numbers. */
function packableCode(geometry: unknown): number | undefined {
  if (typeof geometry !== "object" || geometry === null) return undefined;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  const code = typeof type === "string" ? CODE_OF.get(type) : undefined;
  return code !== undefined && twoNumbersEach(coordinates, depthOf(code)) ? code : undefined;
}

function twoNumbersEach(value: unknown, depth: number): boolean {
  if (!Array.isArray(value)) return false;
  if (depth === 0) return value.length === 2 && typeof value[0] === "number" && typeof value[1] === "number";
  for (const member of value) if (!twoNumbersEach(member, depth - 1)) return false;
  return true;
}

/** Growing typed arrays, doubled when full. */
class Writer {
  #numbers = new Float64Array(1 << 14);
  #numberCount = 0;
  #shape = new Int32Array(1 << 10);
  #shapeCount = 0;

  shape(value: number): void {
    if (this.#shapeCount === this.#shape.length)
      this.#shape = grown(this.#shape, new Int32Array(this.#shape.length * 2));
    this.#shape[this.#shapeCount++] = value;
  }

  nested(value: unknown, depth: number): void {
    const members = value as unknown[];
    if (depth === 0) {
      if (this.#numberCount + 2 > this.#numbers.length) {
        this.#numbers = grown(this.#numbers, new Float64Array(this.#numbers.length * 2));
      }
      this.#numbers[this.#numberCount++] = members[0] as number;
      this.#numbers[this.#numberCount++] = members[1] as number;
      return;
    }
    this.shape(members.length);
    for (const member of members) this.nested(member, depth - 1);
  }

  /** Copies of the used parts: the batch's own buffers, sized to it, to hand over. */
  done(): { numbers: Float64Array; shape: Int32Array } {
    return { numbers: this.#numbers.slice(0, this.#numberCount), shape: this.#shape.slice(0, this.#shapeCount) };
  }
}

function grown<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
