import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Polygon } from "../types.js";
import { distanceBetweenAreas } from "./distance-between-areas.js";
import { distanceToGeometry } from "./distance-to-geometry.js";
import { geodesicDistance } from "./geodesic-distance.js";
import { intersects } from "./intersects.js";
import { convexPolygon, rectangle, square } from "./test-shapes.js";

describe("distanceBetweenAreas", () => {
  it("is the gap between two squares side by side on the equator", () => {
    const west = square(0, 0, 0.001);
    const east = square(0.002, 0, 0.001);
    // The nearest points are corners on the equator, 0.001° of equator apart.
    expect(distanceBetweenAreas(west, east)).toBeCloseTo(geodesicDistance([0.001, 0], [0.002, 0]), 6);
    expect(distanceBetweenAreas(west, east)).toBeCloseTo(111.319, 3);
  });

  it("is the distance from a vertex to the middle of an edge when that is nearest", () => {
    const lot = square(-71.06, 42.36, 0.002);
    const shed = rectangle(-71.059, 42.3625, -71.0585, 42.363);
    const expected = distanceToGeometry([-71.059, 42.3625], lot);
    expect(distanceBetweenAreas(lot, shed)).toBeCloseTo(expected, 6);
    expect(distanceBetweenAreas(lot, shed)).toBeCloseTo(geodesicDistance([-71.059, 42.3625], [-71.059, 42.362]), 3);
  });

  it("is 0 for areas that overlap, touch, or lie one inside the other", () => {
    expect(distanceBetweenAreas(square(0, 0, 0.002), square(0.001, 0.001, 0.002))).toBe(0);
    expect(distanceBetweenAreas(square(0, 0, 0.001), square(0.001, 0, 0.001))).toBe(0);
    expect(distanceBetweenAreas(square(0, 0, 0.003), square(0.001, 0.001, 0.001))).toBe(0);
  });

  it("measures to the edge of a hole from an area inside it", () => {
    const outer = square(0, 0, 0.005);
    const hole = [...(square(0.001, 0.001, 0.003).coordinates[0] ?? [])].reverse();
    const donut: Polygon = { type: "Polygon", coordinates: [outer.coordinates[0] ?? [], hole] };
    const island = square(0.002, 0.002, 0.001);
    expect(distanceBetweenAreas(donut, island)).toBeCloseTo(geodesicDistance([0.002, 0.002], [0.002, 0.001]), 3);
  });

  it("is symmetric, 0 exactly when the areas intersect, and no more than any vertex-to-vertex distance", () => {
    const polygon = fc
      .record({
        lon: fc.double({ min: -71.1, max: -71, noNaN: true }),
        lat: fc.double({ min: 42.3, max: 42.4, noNaN: true }),
        radii: fc.tuple(
          fc.double({ min: 1e-4, max: 0.02, noNaN: true }),
          fc.double({ min: 1e-4, max: 0.02, noNaN: true }),
        ),
        angles: fc.uniqueArray(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 10 }),
      })
      .map(({ lon, lat, radii, angles }) => convexPolygon([lon, lat], radii, angles));
    fc.assert(
      fc.property(polygon, polygon, (a, b) => {
        const ab = distanceBetweenAreas(a, b);
        expect(ab).toBeCloseTo(distanceBetweenAreas(b, a), 6);
        expect(ab === 0).toBe(intersects(a, b));
        for (const p of a.coordinates[0] ?? []) {
          for (const q of b.coordinates[0] ?? []) expect(ab).toBeLessThanOrEqual(geodesicDistance(p, q) + 1e-9);
        }
      }),
      { numRuns: 150 },
    );
  });
});
