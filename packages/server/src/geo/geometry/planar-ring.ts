import type { Position } from "../types.js";
import { latOf, lonOf } from "./positions.js";

/**
 * A ring's signed area in square degrees by the shoelace formula: positive when counter-clockwise in
 * longitude/latitude (RFC 7946's exterior orientation), negative when clockwise. Positions are taken relative to
 * the first so that the rounding does not grow with the size of the coordinates. The closing position may be
 * present or not.
 */
export function planarRingArea(ring: readonly Position[]): number {
  const origin = ring[0];
  if (origin === undefined) return 0;
  const x0 = lonOf(origin);
  const y0 = latOf(origin);
  let twice = 0;
  for (let i = 1; i + 1 < ring.length; i++) {
    const a = ring[i];
    const b = ring[i + 1];
    if (a === undefined || b === undefined) continue;
    twice += (lonOf(a) - x0) * (latOf(b) - y0) - (lonOf(b) - x0) * (latOf(a) - y0);
  }
  return twice / 2;
}
