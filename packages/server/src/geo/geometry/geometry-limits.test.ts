import { describe, expect, it } from "vitest";
import { exceededGeometryLimit, GEOMETRY_LIMITS } from "./geometry-limits.js";

const ringOf = (positions: number) => Array.from({ length: positions }, (_, i) => [i / 1e6, (i % 2) / 1e6]);
const LIMITS = { positionsPerRing: 10, ringsPerPolygon: 3, polygons: 2, positions: 25 };

describe("exceededGeometryLimit", () => {
  it("lets through what is within every limit, and what is not a polygon at all (validation refuses that)", () => {
    expect(exceededGeometryLimit({ type: "Polygon", coordinates: [ringOf(10), ringOf(10)] }, LIMITS)).toBeUndefined();
    expect(exceededGeometryLimit({ type: "Point", coordinates: [0, 0] }, LIMITS)).toBeUndefined();
    expect(exceededGeometryLimit({ type: "Polygon", coordinates: "none" }, LIMITS)).toBeUndefined();
    expect(exceededGeometryLimit(null, LIMITS)).toBeUndefined();
  });

  it("names each limit broken", () => {
    expect(exceededGeometryLimit({ type: "Polygon", coordinates: [ringOf(4), ringOf(11)] }, LIMITS)).toBe(
      "ring 2 has 11 positions; at most 10 positions per ring are accepted",
    );
    expect(
      exceededGeometryLimit({ type: "Polygon", coordinates: [ringOf(4), ringOf(4), ringOf(4), ringOf(4)] }, LIMITS),
    ).toBe("the polygon has 4 rings; at most 3 rings per polygon are accepted");
    expect(
      exceededGeometryLimit({ type: "MultiPolygon", coordinates: [[ringOf(4)], [ringOf(4)], [ringOf(4)]] }, LIMITS),
    ).toBe("the MultiPolygon has 3 polygons; at most 2 are accepted");
    expect(
      exceededGeometryLimit({ type: "MultiPolygon", coordinates: [[ringOf(10), ringOf(10)], [ringOf(10)]] }, LIMITS),
    ).toBe("the geometry has 30 positions; at most 25 in all are accepted");
  });

  it("allows a real parcel's detail: 10,000 positions in all, 5,000 in a ring", () => {
    expect(GEOMETRY_LIMITS).toEqual({
      positionsPerRing: 5_000,
      ringsPerPolygon: 100,
      polygons: 100,
      positions: 10_000,
    });
    const detailed = { type: "MultiPolygon", coordinates: [[ringOf(5_000)], [ringOf(5_000)]] };
    expect(exceededGeometryLimit(detailed)).toBeUndefined();
    expect(exceededGeometryLimit({ type: "MultiPolygon", coordinates: [[ringOf(5_000)], [ringOf(5_001)]] })).toMatch(
      /polygon 2, ring 1 has 5001 positions/,
    );
  });
});
