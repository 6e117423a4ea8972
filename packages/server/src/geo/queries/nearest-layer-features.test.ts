import { describe, expect, it } from "vitest";
import { bboxPolygon } from "../geometry/bbox-polygon.js";
import { geodesicArea } from "../geometry/index.js";
import type { BBox } from "../types.js";
import { firstRadiusOf } from "./nearest-layer-features.js";

describe("firstRadiusOf", () => {
  // About 11.1 × 11.1 km on the equator.
  const extent: BBox = [0, 0, 0.1, 0.1];
  const area = geodesicArea(bboxPolygon(extent));

  it("starts a sparse layer where a square around the point holds two of its features on average", () => {
    const radius = firstRadiusOf(extent, 8);
    expect(radius).toBeCloseTo(Math.sqrt(area / 16), 6);
    expect(radius).toBeGreaterThan(2700);
    expect(radius).toBeLessThan(2800);
    expect(((2 * radius) ** 2 * 8) / area).toBeCloseTo(2, 9);
  });

  it("starts a dense layer at 125 m, never closer", () => {
    expect(firstRadiusOf(extent, 2_000)).toBeCloseTo(Math.sqrt(area / 4_000), 6);
    expect(firstRadiusOf(extent, 100_000)).toBe(125);
  });

  it("starts at 125 m when the layer says nothing of its spread: no extent, one feature, or all in one place", () => {
    expect(firstRadiusOf(null, 50)).toBe(125);
    expect(firstRadiusOf(extent, 1)).toBe(125);
    expect(firstRadiusOf(extent, 0)).toBe(125);
    expect(firstRadiusOf([1, 2, 1, 2], 30)).toBe(125);
  });
});
