import { beforeAll, describe, expect, it } from "vitest";
import { bboxOf, containsPoint, distanceToGeometry } from "../../geo/geometry/index.js";
import type { BBox, LonLat, Polygon, Position } from "../../geo/types.js";
import { candidateLimit } from "./candidate-limit.js";
import { chordToSegment } from "./chord-to-segment.js";
import { coastDistance } from "./coastline.js";
import { type Coastline, coastline } from "./coastline-atlas.js";
import { unitVector } from "./unit-vector.js";

/**
 * The answer with no index: every coast edge measured by chord to choose the candidates, and every land polygon
 * whose bounding box holds the point asked whether it holds it. The fast path must agree with it exactly.
 */
let landWithBoxes: Array<{ polygon: Polygon; bbox: BBox }> = [];

function bruteForce(atlas: Coastline, point: LonLat): { distanceM: number; onLand: boolean } {
  const { lonLat, xyz, edges } = atlas;
  const p = unitVector(point[0], point[1]);
  const chords = new Float64Array(edges.length);
  let least = Number.POSITIVE_INFINITY;
  edges.forEach((a, i) => {
    chords[i] = chordToSegment(p, xyz, a, a + 1);
    least = Math.min(least, chords[i] ?? 0);
  });
  const limit = candidateLimit(least);
  const at = (v: number): Position => [lonLat[v * 2] ?? 0, lonLat[v * 2 + 1] ?? 0];
  const candidates: Position[][] = [];
  edges.forEach((a, i) => {
    if ((chords[i] ?? 0) <= limit) candidates.push([at(a), at(a + 1)]);
  });
  const [lon, lat] = point;
  const onLand = landWithBoxes.some(
    ({ polygon, bbox: [west, south, east, north] }) =>
      lon >= west && lon <= east && lat >= south && lat <= north && containsPoint(polygon, point),
  );
  return { distanceM: distanceToGeometry(point, { type: "MultiLineString", coordinates: candidates }), onLand };
}

/** Points spread evenly over the sphere (uniform in sine of latitude), the same on every run. */
function seededPoints(count: number, seed: number): LonLat[] {
  let state = seed;
  const random = () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
  return Array.from({ length: count }, (): LonLat => {
    const lon = random() * 360 - 180;
    return [lon, (Math.asin(random() * 2 - 1) * 180) / Math.PI];
  });
}

const PLACES: Record<string, LonLat> = {
  "Cambridge, MA": [-71.0805, 42.3713],
  Miami: [-80.19, 25.76],
  "Miami Beach, on the barrier island": [-80.13, 25.79],
  Denver: [-104.99, 39.74],
  "Georges Bank, offshore": [-68.7, 41.8],
  "Chicago, on Lake Michigan's shore": [-87.6, 41.88],
  "Lake Michigan, mid-lake": [-87.0, 43.5],
  "Key West": [-81.78, 24.56],
  "Seattle, on Puget Sound": [-122.34, 47.61],
  Honolulu: [-157.86, 21.31],
  Anchorage: [-149.9, 61.22],
};

describe("coastDistance (ball tree and latitude bands) against brute force", () => {
  let atlas: Coastline;

  beforeAll(async () => {
    atlas = await coastline();
    landWithBoxes = atlas.landPolygons.map((polygon) => ({ polygon, bbox: bboxOf(polygon) }));
  }, 120_000);

  const expectSameAsBruteForce = async (points: LonLat[]) => {
    for (const point of points) {
      const fast = await coastDistance(point);
      const slow = bruteForce(atlas, point);
      expect(fast.onLand, `on land at ${point}`).toBe(slow.onLand);
      expect(Math.abs(fast.distanceM - slow.distanceM), `distance at ${point}`).toBeLessThanOrEqual(1e-6);
    }
  };

  it("agrees on real places: cities inland and on the shore, a lake, the open sea", async () => {
    await expectSameAsBruteForce(Object.values(PLACES));
    expect((await coastDistance(PLACES["Cambridge, MA"] ?? [0, 0])).onLand).toBe(true);
    expect((await coastDistance(PLACES["Georges Bank, offshore"] ?? [0, 0])).onLand).toBe(false);
  }, 120_000);

  it("agrees on 200 points scattered over the world, land and sea", async () => {
    await expectSameAsBruteForce(seededPoints(200, 20240611));
  }, 120_000);

  it("agrees on points along the US coasts and Great Lakes", async () => {
    const points = seededPoints(100, 7).map(
      ([lon, lat]): LonLat => [-125 + ((lon + 180) / 360) * 58, 24 + ((lat + 90) / 180) * 26],
    );
    await expectSameAsBruteForce(points);
  }, 120_000);

  it("counts the coast itself as land, holes' edges included, and agrees level with a vertex", async () => {
    // Vertices of land rings (outer rings and holes), and points due east and west of them: a ray through a
    // vertex is where crossing counts go wrong if an edge is missed.
    const rings = atlas.landPolygons.flatMap((polygon) => polygon.coordinates);
    const vertices = rings
      .filter((_, i) => i % 151 === 0)
      .map((ring, i) => ring[(i * 31) % Math.max(1, ring.length - 1)] ?? [0, 0]);
    const holes = atlas.landPolygons.flatMap((polygon) => polygon.coordinates.slice(1)).slice(0, 10);
    const holeVertices = holes.map((ring) => ring[0] ?? [0, 0]);
    const points = [...vertices, ...holeVertices].flatMap(([lon = 0, lat = 0]): LonLat[] => [
      [lon, lat],
      [lon + 0.01, lat],
      [lon - 0.01, lat],
    ]);
    expect(holeVertices.length).toBeGreaterThan(0);
    for (const [lon = 0, lat = 0] of [...vertices, ...holeVertices]) {
      expect((await coastDistance([lon, lat])).onLand, `vertex ${lon},${lat}`).toBe(true);
    }
    await expectSameAsBruteForce(points);
  }, 120_000);

  it("agrees on the edges of its latitude bands and at the poles", async () => {
    const points = [-90, -89.95, -60.1, -0.1, 0, 0.1, 42.3, 42.4, 60, 89.9, 90].flatMap((lat) =>
      [-180, -71.05, 0, 100.3, 180].map((lon): LonLat => [lon, lat]),
    );
    await expectSameAsBruteForce(points);
  }, 120_000);
});
