import type { Geometry } from "../types.js";

/**
 * Stored geometries kept parsed between orders, least recently used out first, up to a number of characters of
 * their GeoJSON text (parsed, they take some 3–6 times that in memory). Every order in an area meets the same
 * flood zones, districts, parcels and buildings, some of them megabytes of GeoJSON; parsing them again for each
 * order was most of a spatial query's cost and much of the garbage collector's. A row is known by its id and the
 * import that last wrote it (ids are never reused, and any import that changes a row stamps its own import id),
 * so an entry can never be stale. Callers must not change what they are given: it is shared.
 */
export class ParsedGeometries {
  readonly #entries = new Map<string, { geometry: Geometry; chars: number }>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  parse(id: number, importId: number, text: string): Geometry {
    const key = `${id}:${importId}`;
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.geometry;
    }
    const geometry = JSON.parse(text) as Geometry;
    if (text.length <= this.#maxChars / 4) {
      this.#entries.set(key, { geometry, chars: text.length });
      this.#chars += text.length;
      for (const [oldest, entry] of this.#entries) {
        if (this.#chars <= this.#maxChars) break;
        this.#entries.delete(oldest);
        this.#chars -= entry.chars;
      }
    }
    return geometry;
  }
}

/** The process's parsed layer geometries: few, some large. */
export const layerGeometries = new ParsedGeometries(8_000_000);

/** The process's parsed building footprints and parcel boundaries: many, small. */
export const buildingFootprints = new ParsedGeometries(4_000_000);
export const parcelBoundaries = new ParsedGeometries(4_000_000);
