import type { Position } from "../types.js";
import { latOf, lonOf } from "./positions.js";
import { WGS84 } from "./wgs84.js";

/**
 * A ring's geodesic area (m², unsigned) and perimeter (m) on WGS 84, each edge being the geodesic between its
 * two positions. The closing position may be present or not.
 */
export function ringGeodesics(ring: Position[]): { area: number; perimeter: number } {
  const polygon = WGS84.Polygon(false);
  const last = ring.length - 1;
  ring.forEach((position, index) => {
    const closing = index === last && index > 0 && samePosition(position, ring[0]);
    if (!closing) polygon.AddPoint(latOf(position), lonOf(position));
  });
  if (polygon.num < 2) return { area: 0, perimeter: 0 };
  // reverse = false, sign = true: counter-clockwise rings come out positive, clockwise ones negative.
  const { area = 0, perimeter } = polygon.Compute(false, true);
  return { area: Math.abs(area), perimeter };
}

function samePosition(a: Position, b: Position | undefined): boolean {
  return b !== undefined && lonOf(a) === lonOf(b) && latOf(a) === latOf(b);
}
