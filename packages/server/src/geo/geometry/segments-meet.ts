import { orientation } from "./orientation.js";
import type { Pair } from "./read-polygons.js";

/**
 * Whether the closed segments a–b and c–d share a point: crossing, touching, or overlapping along a line.
 * Exact (see {@link orientation}).
 */
export function segmentsMeet(a: Pair, b: Pair, c: Pair, d: Pair): boolean {
  const d1 = orientation(a, b, c);
  const d2 = orientation(a, b, d);
  const d3 = orientation(c, d, a);
  const d4 = orientation(c, d, b);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (
    (d1 === 0 && within(a, b, c)) ||
    (d2 === 0 && within(a, b, d)) ||
    (d3 === 0 && within(c, d, a)) ||
    (d4 === 0 && within(c, d, b))
  );
}

/** Whether `point`, on the line through `start` and `end`, lies between them. */
function within(start: Pair, end: Pair, point: Pair): boolean {
  return (
    Math.min(start[0], end[0]) <= point[0] &&
    point[0] <= Math.max(start[0], end[0]) &&
    Math.min(start[1], end[1]) <= point[1] &&
    point[1] <= Math.max(start[1], end[1])
  );
}
