import type { Geometry } from "../types.js";

/** The GeoJSON text kept parsed, at most: about 100–200 MB of parsed objects. */
const MAX_TEXT_CHARS = 32_000_000;

/**
 * Layer geometries kept parsed between orders, least recently used out first, up to {@link MAX_TEXT_CHARS} of
 * their text. Every order in an area meets the same flood zones and districts, some of them megabytes of GeoJSON;
 * parsing them for each order was most of a layer query's cost. A row is known by its id and the import that
 * last wrote it (ids are never reused, and any import that changes a row stamps its own import id), so an entry
 * can never be stale.
 */
export class ParsedGeometries {
  readonly #entries = new Map<string, { geometry: Geometry; chars: number }>();
  #chars = 0;

  parse(id: number, importId: number, text: string): Geometry {
    const key = `${id}:${importId}`;
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.geometry;
    }
    const geometry = JSON.parse(text) as Geometry;
    if (text.length <= MAX_TEXT_CHARS / 4) {
      this.#entries.set(key, { geometry, chars: text.length });
      this.#chars += text.length;
      for (const [oldest, entry] of this.#entries) {
        if (this.#chars <= MAX_TEXT_CHARS) break;
        this.#entries.delete(oldest);
        this.#chars -= entry.chars;
      }
    }
    return geometry;
  }
}

/** The process's one cache of parsed layer geometries. */
export const layerGeometries = new ParsedGeometries();
