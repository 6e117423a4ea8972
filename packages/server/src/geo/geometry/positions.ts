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
  const count = (value: unknown): number =>
    Array.isArray(value) && Array.isArray(value[0]) ? value.reduce((sum: number, inner) => sum + count(inner), 0) : 1;
  return count(geometry.coordinates);
}

/** How many positions an area's rings hold, closing positions included. */
export function vertexCount(area: Area): number {
  let count = 0;
  for (const polygon of polygonsOf(area)) for (const ring of polygon) count += ring.length;
  return count;
}
