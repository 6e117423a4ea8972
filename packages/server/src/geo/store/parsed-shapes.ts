import type { Geometry } from "../types.js";

/** A stored row's geometry and attributes, parsed. Shared between callers: never change it. */
export interface Shape {
  geometry: Geometry;
  attributes: Record<string, unknown>;
}

/**
 * Geometries and attributes of stored rows kept parsed between orders, least recently used out first, up to a
 * number of characters of their JSON text (parsed, they take some 3–6 times that in memory). Every order in an
 * area meets the same flood zones, districts, parcels and buildings, some of them megabytes of GeoJSON; reading
 * and parsing them again for each order was most of a spatial query's cost and much of the garbage collector's.
 * A row is known by its id and the import that last wrote it (ids are never reused, and any import that changes
 * a row's geometry or attributes stamps its own import id), so an entry can never be stale.
 */
export class ParsedShapes {
  readonly #entries = new Map<string, Shape & { chars: number }>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** The shape of row `id` as import `importId` wrote it, if it is kept. */
  get(id: number, importId: number): Shape | undefined {
    const key = `${id}:${importId}`;
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  /** The shape of row `id` parsed from its stored text, kept unless it is too large to keep. */
  parse(id: number, importId: number, geometryText: string, attributesText: string): Shape {
    const kept = this.get(id, importId);
    if (kept) return kept;
    const chars = geometryText.length + attributesText.length;
    const shape = { geometry: JSON.parse(geometryText) as Geometry, attributes: JSON.parse(attributesText), chars };
    if (chars <= this.#maxChars / 4) {
      this.#entries.set(`${id}:${importId}`, shape);
      this.#chars += chars;
      for (const [oldest, entry] of this.#entries) {
        if (this.#chars <= this.#maxChars) break;
        this.#entries.delete(oldest);
        this.#chars -= entry.chars;
      }
    }
    return shape;
  }
}

/** The process's parsed layer features: few, some large. */
export const layerShapes = new ParsedShapes(8_000_000);

/** The process's parsed building footprints and parcel boundaries: many, small. */
export const buildingShapes = new ParsedShapes(4_000_000);
export const parcelShapes = new ParsedShapes(4_000_000);
