import { containsPoint } from "../geometry/index.js";
import type { GeoSource } from "../store/spatial-filter.js";
import type { LonLat } from "../types.js";
import { CandidateParcels } from "./candidate-parcels.js";
import { KeptBoundaries } from "./kept-boundaries.js";

/** Points looked for at once: the boundaries of their candidates that are not kept are read in one statement. */
const POINTS_AT_ONCE = 500;

/** Boundaries kept between chunks: the addresses of a street share them. */
const KEPT_BOUNDARIES = 20_000;

/**
 * Finds the parcels containing an import's points (addresses located by their own coordinates), as `parcelAt`
 * finds one point's, where no parcel is written meanwhile: in an address import's transaction or on its thread.
 * A search of the spatial index and a read of each parcel found for every point made a state's address points
 * four times as slow to import as its addresses joined by parcel id; here the candidates come from the parcels'
 * boxes kept by map cell ({@link CandidateParcels}) and each boundary is read once for the points around it.
 */
export class ParcelsAtPoints {
  readonly #candidates: CandidateParcels;
  readonly #kept: KeptBoundaries;

  /** `mostKept` bounds the boundaries kept (fewer in tests). */
  constructor(source: GeoSource, mostKept = KEPT_BOUNDARIES) {
    this.#candidates = new CandidateParcels(source);
    this.#kept = new KeptBoundaries(source, mostKept);
  }

  /**
   * For each point, the id of the parcel containing it (its boundary counts as inside), or null. Where parcels of
   * several datasets overlap, the smallest wins, the lower id between equals, as `parcelAt` chooses.
   */
  async containing(points: readonly LonLat[]): Promise<Array<number | null>> {
    const found: Array<number | null> = [];
    for (let start = 0; start < points.length; start += POINTS_AT_ONCE) {
      const chunk = points.slice(start, start + POINTS_AT_ONCE);
      const candidates = await this.#candidates.meeting(chunk.map(([lon, lat]) => [lon, lat, lon, lat]));
      await this.#kept.keep(candidates);
      for (const [i, point] of chunk.entries()) found.push(this.#smallestContaining(point, candidates[i] ?? []));
      // Only once the chunk is done: it still needs every boundary it read.
      this.#kept.trim();
    }
    return found;
  }

  #smallestContaining(point: LonLat, candidates: readonly number[]): number | null {
    const [lon, lat] = point;
    let best: { id: number; areaM2: number } | null = null;
    // Ascending ids: a later parcel of equal area never displaces an earlier one.
    for (const id of candidates) {
      const boundary = this.#kept.get(id);
      if (!boundary || (best && boundary.areaM2 >= best.areaM2)) continue;
      const [minLon, minLat, maxLon, maxLat] = boundary.box;
      if (lon < minLon || lon > maxLon || lat < minLat || lat > maxLat) continue;
      if (containsPoint(KeptBoundaries.area(boundary), point)) best = { id, areaM2: boundary.areaM2 };
    }
    return best?.id ?? null;
  }
}
