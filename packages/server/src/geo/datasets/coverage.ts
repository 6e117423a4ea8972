import { expandBBox } from "../geometry/index.js";
import type { BBox, LonLat } from "../types.js";

/**
 * How far beyond the box of its features a dataset is taken to speak, m. A city's hydrant or flood-zone layer
 * describes the whole city, not only the box of its features; a layer of another state says nothing here.
 */
export const COVERAGE_MARGIN_M = 2_000;

/** The area a dataset with this extent covers: the extent grown by {@link COVERAGE_MARGIN_M}. */
export function coverageOf(extent: BBox): BBox {
  return expandBBox(extent, COVERAGE_MARGIN_M);
}

/** Whether a dataset with this extent covers the point. */
export function covers(extent: BBox | null, [lon, lat]: LonLat): boolean {
  if (!extent) return false;
  const [minLon, minLat, maxLon, maxLat] = coverageOf(extent);
  return lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat;
}
