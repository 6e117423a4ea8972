import type { Area, Geometry, Position } from "../types.js";

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

/** How many positions any geometry holds (none for no geometry), closing positions included. */
export function positionCount(geometry: Geometry | null): number {
  if (geometry === null) return 0;
  if (geometry.type === "GeometryCollection") {
    return geometry.geometries.reduce((sum, member) => sum + positionCount(member), 0);
  }
  return countNested(geometry.coordinates);
}

/** Positions in nested arrays of them: a list of positions counts by its length, not one call a position. */
function countNested(value: unknown): number {
  if (!Array.isArray(value) || !Array.isArray(value[0])) return 1;
  if (!Array.isArray(value[0][0])) return value.length;
  let sum = 0;
  for (const inner of value) sum += countNested(inner);
  return sum;
}

/** How many positions an area's rings hold, closing positions included. */
export function vertexCount(area: Area): number {
  let count = 0;
  for (const polygon of polygonsOf(area)) for (const ring of polygon) count += ring.length;
  return count;
}
