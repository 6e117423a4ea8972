import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MultiPolygon, Polygon } from "../types.js";
import { containsPoint } from "./contains-point.js";
import { rectangle, square } from "./test-shapes.js";

describe("containsPoint", () => {
  const lot = square(-71.06, 42.36, 0.001);

  it("holds points inside and not outside", () => {
    expect(containsPoint(lot, [-71.0595, 42.3605])).toBe(true);
    expect(containsPoint(lot, [-71.0615, 42.3605])).toBe(false);
  });

  it("counts the boundary, edges and corners, as inside", () => {
    expect(containsPoint(lot, [-71.06, 42.3605])).toBe(true);
    expect(containsPoint(lot, [-71.0595, 42.361])).toBe(true);
    expect(containsPoint(lot, [-71.06, 42.36])).toBe(true);
  });

  it("leaves out a hole, but not the hole's edge", () => {
    const donut: Polygon = {
      type: "Polygon",
      coordinates: [square(0, 0, 3).coordinates[0] ?? [], [...(square(1, 1, 1).coordinates[0] ?? [])].reverse()],
    };
    expect(containsPoint(donut, [1.5, 1.5])).toBe(false);
    expect(containsPoint(donut, [1, 1.5])).toBe(true);
    expect(containsPoint(donut, [0.5, 1.5])).toBe(true);
  });

  it("looks in every polygon of a MultiPolygon", () => {
    const both: MultiPolygon = {
      type: "MultiPolygon",
      coordinates: [square(0, 0, 1).coordinates, square(5, 5, 1).coordinates],
    };
    expect(containsPoint(both, [5.5, 5.5])).toBe(true);
    expect(containsPoint(both, [3, 3])).toBe(false);
  });

  it("agrees with the rectangle's inequalities for random rectangles and points off the edges", () => {
    const scene = fc.record({
      west: fc.double({ min: -179, max: 178, noNaN: true }),
      south: fc.double({ min: -89, max: 88, noNaN: true }),
      width: fc.double({ min: 1e-5, max: 1, noNaN: true }),
      height: fc.double({ min: 1e-5, max: 1, noNaN: true }),
      // Thousandths of the width and height, never on the edge itself.
      u: fc.integer({ min: -999, max: 1999 }).filter((k) => k !== 0 && k !== 1000),
      v: fc.integer({ min: -999, max: 1999 }).filter((k) => k !== 0 && k !== 1000),
    });
    fc.assert(
      fc.property(scene, ({ west, south, width, height, u, v }) => {
        const [east, north] = [west + width, south + height];
        const point = [west + (u / 1000) * width, south + (v / 1000) * height];
        const [lon = 0, lat = 0] = point;
        const expected = west <= lon && lon <= east && south <= lat && lat <= north;
        expect(containsPoint(rectangle(west, south, east, north), point)).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
