/**
 * A Polygon or MultiPolygon as three flat typed arrays: what crosses to a worker thread as a copy of three blocks of
 * memory, where nested arrays of positions cost a structured clone of every one of them (milliseconds on the event
 * loop for a few thousand positions).
 */
export interface PackedPolygons {
  type: "Polygon" | "MultiPolygon";
  ringsPerPolygon: Int32Array;
  positionsPerRing: Int32Array;
  /** Longitude, latitude, longitude, … of every position in turn; elevations are left out. */
  coordinates: Float64Array;
}

/**
 * The geometry packed, or `undefined` when it is not a Polygon or MultiPolygon whose positions all start with two
 * numbers (the caller then sends it as it is, so that validation names what is wrong).
 */
export function packPolygons(geometry: unknown): PackedPolygons | undefined {
  if (typeof geometry !== "object" || geometry === null) return undefined;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if ((type !== "Polygon" && type !== "MultiPolygon") || !Array.isArray(coordinates)) return undefined;
  const polygons: unknown[] = type === "Polygon" ? [coordinates] : coordinates;
  const ringCounts: number[] = [];
  const positionCounts: number[] = [];
  for (const rings of polygons) {
    if (!Array.isArray(rings)) return undefined;
    ringCounts.push(rings.length);
    for (const ring of rings) {
      if (!Array.isArray(ring)) return undefined;
      positionCounts.push(ring.length);
    }
  }
  // Sized first and filled in place: no array of numbers to build and throw away.
  const values = new Float64Array(2 * positionCounts.reduce((sum, count) => sum + count, 0));
  let at = 0;
  for (const rings of polygons as unknown[][][]) {
    for (const ring of rings) {
      for (const position of ring) {
        if (!Array.isArray(position)) return undefined;
        const [lon, lat] = position as unknown[];
        if (typeof lon !== "number" || typeof lat !== "number") return undefined;
        values[at++] = lon;
        values[at++] = lat;
      }
    }
  }
  return {
    type,
    ringsPerPolygon: Int32Array.from(ringCounts),
    positionsPerRing: Int32Array.from(positionCounts),
    coordinates: values,
  };
}

/** The GeoJSON geometry a {@link PackedPolygons} holds. */
export function unpackPolygons({ type, ringsPerPolygon, positionsPerRing, coordinates }: PackedPolygons): {
  type: "Polygon" | "MultiPolygon";
  coordinates: number[][][] | number[][][][];
} {
  const polygons: number[][][][] = [];
  let ringIndex = 0;
  let at = 0;
  for (const ringCount of ringsPerPolygon) {
    const rings: number[][][] = [];
    for (let r = 0; r < ringCount; r++) {
      const positions = positionsPerRing[ringIndex++] ?? 0;
      const ring: number[][] = [];
      for (let i = 0; i < positions; i++, at += 2)
        ring.push([coordinates[at] ?? Number.NaN, coordinates[at + 1] ?? Number.NaN]);
      rings.push(ring);
    }
    polygons.push(rings);
  }
  return type === "Polygon" ? { type, coordinates: polygons[0] ?? [] } : { type, coordinates: polygons };
}
