import type { Area, Position } from "../types.js";

/** A position's longitude; `NaN` for a position too short to have one. */
export function lonOf(position: Position): number {
  return position[0] ?? Number.NaN;
}

/** A position's latitude; `NaN` for a position too short to have one. */
export function latOf(position: Position): number {
  return position[1] ?? Number.NaN;
}

/** The polygons of an area, each as its rings (exterior first). */
export function polygonsOf(area: Area): Position[][][] {
  return area.type === "Polygon" ? [area.coordinates] : area.coordinates;
}

/** How many positions an area's rings hold, closing positions included. */
export function vertexCount(area: Area): number {
  let count = 0;
  for (const polygon of polygonsOf(area)) for (const ring of polygon) count += ring.length;
  return count;
}
