import type { BBox, Geometry, Position } from "../types.js";

/**
 * The bounding box `[minLon, minLat, maxLon, maxLat]` of a geometry's positions (any `bbox` member the geometry
 * carries is ignored and recomputed). An empty geometry has `[Infinity, Infinity, -Infinity, -Infinity]`, which
 * meets nothing. A geometry crossing the antimeridian gets a box spanning the long way round.
 *
 * A loop by the geometry's type, where turf's walk made a call per position: 0.27 against 0.35 µs for a footprint,
 * and one runtime dependency fewer.
 *
 * @example
 * bboxOf({ type: "LineString", coordinates: [[-71.06, 42.36], [-71.05, 42.35]] }); //= [-71.06, 42.35, -71.05, 42.36]
 */
export function bboxOf(geometry: Geometry): BBox {
  const box: BBox = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  extendByGeometry(box, geometry);
  return box;
}

function extendByGeometry(box: BBox, geometry: Geometry): void {
  switch (geometry.type) {
    case "Point":
      extendByPosition(box, geometry.coordinates);
      return;
    case "MultiPoint":
    case "LineString":
      extendByPositions(box, geometry.coordinates);
      return;
    case "MultiLineString":
    case "Polygon":
      for (const line of geometry.coordinates) extendByPositions(box, line);
      return;
    case "MultiPolygon":
      for (const polygon of geometry.coordinates) for (const ring of polygon) extendByPositions(box, ring);
      return;
    case "GeometryCollection":
      for (const member of geometry.geometries) extendByGeometry(box, member);
  }
}

function extendByPositions(box: BBox, positions: Position[]): void {
  for (const position of positions) extendByPosition(box, position);
}

// Comparisons that are false for NaN: a position without a number leaves the box as it was.
function extendByPosition(box: BBox, position: Position): void {
  const lon = position[0] as number;
  const lat = position[1] as number;
  if (lon < box[0]) box[0] = lon;
  if (lat < box[1]) box[1] = lat;
  if (lon > box[2]) box[2] = lon;
  if (lat > box[3]) box[3] = lat;
}
