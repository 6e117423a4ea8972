import { describe, expect, it } from "vitest";
import { intersects } from "./intersects.js";
import { square } from "./test-shapes.js";

describe("intersects", () => {
  it("is true for overlapping, touching and nested areas", () => {
    expect(intersects(square(0, 0, 2), square(1, 1, 2))).toBe(true);
    expect(intersects(square(0, 0, 1), square(1, 0, 1))).toBe(true);
    expect(intersects(square(0, 0, 1), square(1, 1, 1))).toBe(true);
    expect(intersects(square(0, 0, 3), square(1, 1, 1))).toBe(true);
  });

  it("is false for disjoint areas, even when their boxes overlap", () => {
    expect(intersects(square(0, 0, 1), square(2, 2, 1))).toBe(false);
    const triangle = {
      type: "Polygon" as const,
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    const across = {
      type: "Polygon" as const,
      coordinates: [
        [
          [1, 1],
          [0.6, 1],
          [1, 0.6],
          [1, 1],
        ],
      ],
    };
    expect(intersects(triangle, across)).toBe(false);
  });

  it("takes points and lines too", () => {
    expect(intersects(square(0, 0, 1), { type: "Point", coordinates: [0.5, 0.5] })).toBe(true);
    expect(intersects(square(0, 0, 1), { type: "Point", coordinates: [1.5, 0.5] })).toBe(false);
    expect(
      intersects(square(0, 0, 1), {
        type: "LineString",
        coordinates: [
          [-1, 0.5],
          [2, 0.5],
        ],
      }),
    ).toBe(true);
    expect(
      intersects(square(0, 0, 1), {
        type: "LineString",
        coordinates: [
          [-1, 1.5],
          [2, 1.5],
        ],
      }),
    ).toBe(false);
  });
});
