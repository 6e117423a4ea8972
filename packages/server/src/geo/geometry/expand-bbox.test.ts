import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BBox } from "../types.js";
import { expandBBox } from "./expand-bbox.js";
import { geodesicDistance } from "./geodesic-distance.js";
import { WGS84 } from "./wgs84.js";

describe("expandBBox", () => {
  const boston: BBox = [-71.06, 42.36, -71.06, 42.36];

  it("moves north and south by exactly the distance along the meridian", () => {
    const [, south, , north] = expandBBox(boston, 100);
    expect(geodesicDistance([-71.06, 42.36], [-71.06, north])).toBeCloseTo(100, 6);
    expect(geodesicDistance([-71.06, south], [-71.06, 42.36])).toBeCloseTo(100, 6);
  });

  it("moves east and west by the distance over the parallel's radius: 100 m is 0.001214° at 42.36°", () => {
    const [west, , east] = expandBBox(boston, 100);
    expect(east + 71.06).toBeCloseTo(0.001_214, 6);
    expect(-71.06 - west).toBeCloseTo(east + 71.06, 12);
    const along = geodesicDistance([-71.06, 42.36], [east, 42.36]);
    expect(along).toBeGreaterThanOrEqual(100);
    expect(along).toBeLessThan(100.01);
  });

  it("returns the box unchanged for 0 metres", () => {
    expect(expandBBox([1, 2, 3, 4], 0)).toEqual([1, 2, 3, 4]);
  });

  it("stops at the poles, and spans every longitude once it reaches one", () => {
    expect(expandBBox([10, 89.999, 11, 89.9995], 1000)).toEqual([-180, expect.closeTo(89.99, 2), 180, 90]);
    expect(expandBBox([10, -89.9995, 11, -89.999], 1000)).toEqual([-180, -90, 180, expect.closeTo(-89.99, 2)]);
  });

  it("clamps longitudes at ±180 rather than wrap", () => {
    const [west, , east] = expandBBox([179.9999, 0, 179.9999, 0], 1000);
    expect(east).toBe(180);
    expect(west).toBeCloseTo(179.9999 - 0.008_983, 5);
  });

  it("holds every point within the distance of any point of the box", () => {
    // Boxes kept clear of the antimeridian, which a box does not wrap across.
    const scene = fc.record({
      west: fc.double({ min: -170, max: 160, noNaN: true }),
      south: fc.double({ min: -85, max: 84, noNaN: true }),
      width: fc.double({ min: 0, max: 1, noNaN: true }),
      height: fc.double({ min: 0, max: 1, noNaN: true }),
      metres: fc.double({ min: 1, max: 50_000, noNaN: true }),
      u: fc.double({ min: 0, max: 1, noNaN: true }),
      v: fc.double({ min: 0, max: 1, noNaN: true }),
      azimuth: fc.double({ min: -180, max: 180, noNaN: true }),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(scene, ({ west, south, width, height, metres, u, v, azimuth, fraction }) => {
        const box: BBox = [west, south, west + width, south + height];
        const [lon, lat] = [west + u * width, south + v * height];
        const { lat2 = Number.NaN, lon2 = Number.NaN } = WGS84.Direct(lat, lon, azimuth, fraction * metres);
        const [minLon, minLat, maxLon, maxLat] = expandBBox(box, metres);
        expect(lon2).toBeGreaterThanOrEqual(minLon);
        expect(lon2).toBeLessThanOrEqual(maxLon);
        expect(lat2).toBeGreaterThanOrEqual(minLat);
        expect(lat2).toBeLessThanOrEqual(maxLat);
      }),
      { numRuns: 200 },
    );
  });
});
