import type { Geometry } from "../types.js";
import { decodeGeometry } from "./geometry-codec.js";
import { attributesFrom } from "./stored-attributes.js";
import { wkbLength } from "./wkb.js";

/** A stored row's geometry and attributes, parsed. Shared between callers: never change it. */
export interface Shape {
  geometry: Geometry;
  attributes: Record<string, unknown>;
}

/**
 * Geometries and attributes of stored rows kept parsed between orders, least recently used out first, up to a
 * number of bytes: their geometry's as WKB (16 a position) and their attributes' JSON text; parsed, they take some
 * 3–4 times that in memory, and an area of many edges, once indexed, about as much again for the index of its
 * edges that it keeps (`indexedEdges`). Stored geometry is packed smaller still, so it is not what is counted. Every
 * order in an area meets the same flood zones, districts, parcels and buildings, some of them megabytes; reading
 * and parsing them again for each order was most of a spatial query's cost and much of the garbage collector's.
 * A row is known by its id and the import that last wrote it (ids are never reused, and any import that changes
 * a row's geometry or attributes stamps its own import id), so an entry can never be stale.
 */
export class ParsedShapes {
  /** By row id: a Map keyed by small integers looks up and keeps its order faster than one keyed by strings. */
  readonly #entries = new Map<number, KeptShape>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The shape of row `id` as import `importId` wrote it, if it is kept. */
  get(id: number, importId: number): Shape | undefined {
    const hit = this.#entries.get(id);
    if (hit === undefined || hit.importId !== importId) return undefined;
    this.#entries.delete(id);
    this.#entries.set(id, hit);
    return hit;
  }

  /**
   * The shape of row `id` read from its stored geometry and attributes (the names' JSON, null for none, and the
   * values'), kept unless it is too large to keep.
   */
  parse(id: number, importId: number, geometry: Uint8Array, keys: string | null, values: string): Shape {
    const kept = this.get(id, importId);
    if (kept) return kept;
    const parsed = decodeGeometry(geometry);
    const shape = new KeptShape(parsed, importId, wkbLength(parsed) + values.length, keys, values);
    if (shape.bytes <= this.#maxBytes / 4) {
      this.#forget(id);
      this.#entries.set(id, shape);
      this.#bytes += shape.bytes;
      if (this.#bytes > this.#maxBytes) this.#forgetOldest();
    }
    return shape;
  }

  /** Forgets every shape kept. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Forgets row `id` as an earlier import wrote it. */
  #forget(id: number): void {
    const earlier = this.#entries.get(id);
    if (earlier === undefined) return;
    this.#entries.delete(id);
    this.#bytes -= earlier.bytes;
  }

  /**
   * The least recently used shapes forgotten down to three quarters of the budget, in one pass: forgotten one at a
   * time, each pass from a new iterator would walk over the entries deleted before (a Map keeps their places
   * until it is rebuilt).
   */
  #forgetOldest(): void {
    for (const [oldest, entry] of this.#entries) {
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
      if (this.#bytes <= this.#maxBytes * 0.75) return;
    }
  }
}

/**
 * A kept shape. Most rows read are candidates measured by their geometry alone, so attributes are made when first
 * asked for; a class rather than an object literal with a getter, which took longer to make than the geometry took
 * to decode.
 */
class KeptShape implements Shape {
  #attributes: Record<string, unknown> | undefined;

  constructor(
    readonly geometry: Geometry,
    readonly importId: number,
    /** What the shape counts against the budget. */
    readonly bytes: number,
    private readonly keys: string | null,
    private readonly values: string,
  ) {}

  get attributes(): Record<string, unknown> {
    this.#attributes ??= attributesFrom(this.keys, this.values);
    return this.#attributes;
  }
}

/** The process's parsed layer features: few, some large (those cut into parts only when read whole, for a map). */
export const layerShapes = new ParsedShapes(8_000_000);

/** The process's parsed parts of large layer features: a few hundred positions each. */
export const layerPartShapes = new ParsedShapes(8_000_000);

/** The process's parsed building footprints and parcel boundaries: many, small. */
export const buildingShapes = new ParsedShapes(4_000_000);
export const parcelShapes = new ParsedShapes(4_000_000);

/**
 * Forgets every shape the process keeps. A process serves one database; one that opens another after it (the tests
 * do, one database after another in one process) must not meet the rows of the one before, whose ids and import
 * ids the new one reuses.
 */
export function forgetParsedShapes(): void {
  for (const shapes of [layerShapes, layerPartShapes, buildingShapes, parcelShapes]) shapes.clear();
}
