import { describe, expect, it } from "vitest";
import type { MultiPolygon, Polygon } from "../types.js";
import { geodesicDistance } from "./geodesic-distance.js";
import { geodesicPerimeter } from "./geodesic-perimeter.js";
import { square } from "./test-shapes.js";

const ring = (polygon: Polygon) => polygon.coordinates[0] ?? [];

describe("geodesicPerimeter", () => {
  it("is the sum of the geodesic lengths of the exterior's edges", () => {
    const lot = square(-71.06, 42.36, 0.001);
    const positions = ring(lot);
    let sum = 0;
    for (let i = 0; i + 1 < positions.length; i++) sum += geodesicDistance(positions[i] ?? [], positions[i + 1] ?? []);
    expect(geodesicPerimeter(lot)).toBeCloseTo(sum, 6);
    // 82.38 m east–west, 111.08 m north–south.
    expect(geodesicPerimeter(lot)).toBeCloseTo(2 * 82.38 + 2 * 111.08, 0);
  });

  it("leaves holes out", () => {
    const outer = square(-71.06, 42.36, 0.003);
    const withHole: Polygon = {
      type: "Polygon",
      coordinates: [ring(outer), [...ring(square(-71.059, 42.361, 0.001))].reverse()],
    };
    expect(geodesicPerimeter(withHole)).toBe(geodesicPerimeter(outer));
  });

  it("sums the exteriors of a MultiPolygon", () => {
    const a = square(-71.06, 42.36, 0.001);
    const b = square(-71.05, 42.36, 0.002);
    const both: MultiPolygon = { type: "MultiPolygon", coordinates: [a.coordinates, b.coordinates] };
    expect(geodesicPerimeter(both)).toBeCloseTo(geodesicPerimeter(a) + geodesicPerimeter(b), 6);
  });
});
