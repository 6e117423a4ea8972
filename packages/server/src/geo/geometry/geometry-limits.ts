/**
 * The most a Polygon or MultiPolygon sent by a client may hold. A surveyed parcel has tens to a few hundred
 * positions, the most detailed (a shoreline lot) a few thousand; these leave room for that while bounding the work
 * one request can ask for.
 */
export const GEOMETRY_LIMITS = {
  /** Positions in one ring, the closing one included. */
  positionsPerRing: 5_000,
  /** Rings of one polygon: its exterior and its holes. */
  ringsPerPolygon: 100,
  /** Polygons of a MultiPolygon. */
  polygons: 100,
  /** Positions in all. */
  positions: 10_000,
} as const;

export type GeometryLimits = { readonly [limit in keyof typeof GEOMETRY_LIMITS]: number };

/**
 * The first of the {@link GEOMETRY_LIMITS} the geometry breaks, as a sentence naming it; `undefined` within them.
 * It only counts (no copy, no geometry), so it is safe to run on any value before anything else: what is not a
 * Polygon or MultiPolygon with arrays where arrays belong is left for validation to refuse.
 *
 * @example
 * exceededGeometryLimit({ type: "Polygon", coordinates: [sixThousandPositions] });
 * //= "ring 1 has 6000 positions; at most 5000 positions per ring are accepted"
 */
export function exceededGeometryLimit(geometry: unknown, limits: GeometryLimits = GEOMETRY_LIMITS): string | undefined {
  if (typeof geometry !== "object" || geometry === null) return undefined;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (!Array.isArray(coordinates) || (type !== "Polygon" && type !== "MultiPolygon")) return undefined;
  const polygons: unknown[] = type === "Polygon" ? [coordinates] : coordinates;
  if (polygons.length > limits.polygons) {
    return `the MultiPolygon has ${polygons.length} polygons; at most ${limits.polygons} are accepted`;
  }
  let positions = 0;
  for (const [p, rings] of polygons.entries()) {
    if (!Array.isArray(rings)) continue;
    const polygon = type === "Polygon" ? "the polygon" : `polygon ${p + 1}`;
    if (rings.length > limits.ringsPerPolygon) {
      return `${polygon} has ${rings.length} rings; at most ${limits.ringsPerPolygon} rings per polygon are accepted`;
    }
    for (const [r, ring] of rings.entries()) {
      if (!Array.isArray(ring)) continue;
      if (ring.length > limits.positionsPerRing) {
        const where = type === "Polygon" ? `ring ${r + 1}` : `polygon ${p + 1}, ring ${r + 1}`;
        return `${where} has ${ring.length} positions; at most ${limits.positionsPerRing} positions per ring are accepted`;
      }
      positions += ring.length;
    }
  }
  if (positions > limits.positions) {
    return `the geometry has ${positions} positions; at most ${limits.positions} in all are accepted`;
  }
  return undefined;
}
