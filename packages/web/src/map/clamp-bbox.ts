import type { Bbox } from "../api/get-map-context";

/**
 * The page API answers map context for boxes up to 0.05° a side; a wider view asks for the box of that size (a
 * hair under, so rounding cannot push it over) around the view's centre.
 */
export const MAX_CONTEXT_SPAN = 0.0499;

/**
 * `bbox` narrowed, each way on its own, to at most `maxSpan` degrees around its centre.
 *
 * @example clampBbox([0, 0, 0.2, 0.01]) // [0.07505, 0, 0.12495, 0.01]
 */
export function clampBbox(bbox: Bbox, maxSpan = MAX_CONTEXT_SPAN): Bbox {
  const [west, south, east, north] = bbox;
  const [w, e] = clampSpan(west, east, maxSpan);
  const [s, n] = clampSpan(south, north, maxSpan);
  return [w, s, e, n];
}

function clampSpan(low: number, high: number, maxSpan: number): [number, number] {
  if (high - low <= maxSpan) return [low, high];
  const centre = (low + high) / 2;
  return [centre - maxSpan / 2, centre + maxSpan / 2];
}
