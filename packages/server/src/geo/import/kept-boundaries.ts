import { sql } from "kysely";
import { INDEXED_FROM_EDGES } from "../geometry/indexed-edges.js";
import { decodeGeometry, storedPositionCount } from "../store/geometry-codec.js";
import { amongIds, type GeoSource } from "../store/spatial-filter.js";
import type { Area, BBox } from "../types.js";

/**
 * A candidate parcel's boundary with its box and stored area: each is met by the dozens of footprints or addresses
 * around it. A lot of a few dozen vertices is kept as its stored bytes and parsed again for each footprint whose box
 * meets its box: kept parsed, the arrays of thousands of lots lived long enough for the collector to copy and
 * promote them, and a building import's thread spent more collecting them than parsing them again costs. A lot of
 * many vertices is kept parsed, with the index of its edges that the first comparison builds (`indexed-edges.ts`).
 */
export interface KeptBoundary {
  bytes: Uint8Array;
  box: BBox;
  areaM2: number;
  parsed: Area | undefined;
}

interface BoundaryRow {
  id: number;
  boundary: Uint8Array;
  area_m2: number;
  min_lon: number;
  min_lat: number;
  max_lon: number;
  max_lat: number;
}

/**
 * Parcel boundaries read for an import's lookups and kept for the ones after (up to a bound, the oldest half
 * forgotten past it): neighbouring footprints and addresses share them. What it keeps is its own, never the
 * process's cache of committed rows: a transaction may yet roll back.
 */
export class KeptBoundaries {
  readonly #source: GeoSource;
  readonly #kept = new Map<number, KeptBoundary>();
  readonly #mostKept: number;

  constructor(source: GeoSource, mostKept: number) {
    this.#source = source;
    this.#mostKept = mostKept;
  }

  get(id: number): KeptBoundary | undefined {
    return this.#kept.get(id);
  }

  /** The boundary's area, parsed now if it is kept as bytes. */
  static area(boundary: KeptBoundary): Area {
    return boundary.parsed ?? (decodeGeometry(boundary.bytes) as Area);
  }

  /** Reads, in one statement, the boundaries of the parcels of `candidates` not kept yet. */
  async keep(candidates: readonly number[][]): Promise<void> {
    const missing = new Set<number>();
    for (const ids of candidates) {
      for (const id of ids) if (!this.#kept.has(id)) missing.add(id);
    }
    if (missing.size === 0) return;
    const { db, dialect } = this.#source;
    const { rows } = await sql<BoundaryRow>`
      select parcel_id as id, boundary, area_m2, min_lon, min_lat, max_lon, max_lat from parcels
      where ${amongIds(dialect, "parcel_id", [...missing])}`.execute(db);
    for (const row of rows) {
      // The row's box is its boundary's (measured from the same stored positions), and counting positions walks
      // the bytes without building anything: a lot kept as bytes is parsed only when a footprint reaches it.
      const many = storedPositionCount(row.boundary) > INDEXED_FROM_EDGES;
      this.#kept.set(Number(row.id), {
        // A copy of its own: a driver's small Buffer may be a slice of a shared block, which keeping it would keep.
        bytes: new Uint8Array(row.boundary),
        box: [Number(row.min_lon), Number(row.min_lat), Number(row.max_lon), Number(row.max_lat)],
        areaM2: Number(row.area_m2),
        parsed: many ? (decodeGeometry(row.boundary) as Area) : undefined,
      });
    }
  }

  /**
   * Past the bound, the older half forgotten at once; called once the lookups that read them are done. One at a
   * time, each from a new iterator, cost a walk over the entries deleted before it (a Map keeps their places until
   * it is rebuilt): 27 µs a parcel, a tenth of a building thread's time.
   */
  trim(): void {
    if (this.#kept.size <= this.#mostKept) return;
    let forgetting = this.#kept.size / 2;
    for (const id of this.#kept.keys()) {
      this.#kept.delete(id);
      if (--forgetting <= 0) return;
    }
  }
}
