import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import polygonClipping from "polygon-clipping";
import { describe, expect, it } from "vitest";
import { REAL_DATA_TIMEOUT_MS } from "../../test/real-data-timeout.js";
import type { Area, MultiPolygon, Polygon } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import { geodesicArea } from "./geodesic-area.js";
import { intersectionArea } from "./intersection-area.js";
import { polygonsOf } from "./positions.js";
import { convexPolygon, rectangle, square } from "./test-shapes.js";

describe("intersectionArea", () => {
  it("is the area of the overlap", () => {
    const a = square(-71.06, 42.36, 0.002);
    const b = square(-71.059, 42.361, 0.002);
    expect(intersectionArea(a, b)).toBeCloseTo(geodesicArea(square(-71.059, 42.361, 0.001)), 3);
  });

  it("is the smaller area when one holds the other, less the holes", () => {
    const outer = square(0, 0, 0.003);
    const inner = square(0.001, 0.001, 0.001);
    expect(intersectionArea(outer, inner)).toBeCloseTo(geodesicArea(inner), 3);
    const donut: Polygon = {
      type: "Polygon",
      coordinates: [outer.coordinates[0] ?? [], [...(inner.coordinates[0] ?? [])].reverse()],
    };
    expect(intersectionArea(donut, inner)).toBe(0);
    expect(intersectionArea(donut, outer)).toBeCloseTo(geodesicArea(outer) - geodesicArea(inner), 3);
  });

  it("is 0, without throwing, for disjoint areas and areas that only touch", () => {
    expect(intersectionArea(square(0, 0, 1), square(2, 2, 1))).toBe(0);
    expect(intersectionArea(square(0, 0, 0.001), square(0.001, 0, 0.001))).toBe(0);
    expect(intersectionArea(square(0, 0, 0.001), square(0.001, 0.001, 0.001))).toBe(0);
    const sharedEdgeHalf = rectangle(0.001, 0.0005, 0.002, 0.0015);
    expect(intersectionArea(square(0, 0, 0.001), sharedEdgeHalf)).toBe(0);
  });

  it("sums over the polygons of a MultiPolygon", () => {
    const both: MultiPolygon = {
      type: "MultiPolygon",
      coordinates: [square(0, 0, 0.001).coordinates, square(0.002, 0, 0.001).coordinates],
    };
    const across = rectangle(0.0005, 0, 0.0025, 0.001);
    expect(intersectionArea(both, across)).toBeCloseTo(geodesicArea(rectangle(0.0005, 0, 0.001, 0.001)) * 2, 2);
  });

  const polygon = fc
    .record({
      lon: fc.double({ min: -71.1, max: -71, noNaN: true }),
      lat: fc.double({ min: 42.3, max: 42.4, noNaN: true }),
      radii: fc.tuple(
        fc.double({ min: 1e-4, max: 0.05, noNaN: true }),
        fc.double({ min: 1e-4, max: 0.05, noNaN: true }),
      ),
      angles: fc.uniqueArray(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 12 }),
    })
    .map(({ lon, lat, radii, angles }) => convexPolygon([lon, lat], radii, angles));

  it("of an area with itself is its area", () => {
    fc.assert(
      fc.property(polygon, (a) => {
        expect(intersectionArea(a, a) / geodesicArea(a)).toBeCloseTo(1, 9);
      }),
      { numRuns: 150 },
    );
  });

  it("is symmetric and no larger than either area", () => {
    fc.assert(
      fc.property(polygon, polygon, (a, b) => {
        const ab = intersectionArea(a, b);
        expect(Math.abs(ab - intersectionArea(b, a))).toBeLessThanOrEqual(1e-9 * geodesicArea(a) + 1e-6);
        expect(ab).toBeLessThanOrEqual(Math.min(geodesicArea(a), geodesicArea(b)) * (1 + 1e-9));
        expect(ab).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 150 },
    );
  });
});

const LAYERS = fileURLToPath(new URL("../../../../../../shared/data/cambridge/layers/", import.meta.url));

describe.skipIf(!existsSync(LAYERS))(
  "intersectionArea on the real Cambridge layers (../shared/data; skipped where absent)",
  { timeout: REAL_DATA_TIMEOUT_MS },
  () => {
    it("answers as polygon-clipping on the whole zones, though it cuts them down first", () => {
      const read = (name: string) =>
        (
          JSON.parse(readFileSync(`${LAYERS}${name}.geojson`, "utf8")) as { features: Array<{ geometry: Area }> }
        ).features.map((feature) => feature.geometry);
      const zones = [...read("fema-floodplain-500yr"), ...read("zoning-districts")];
      // Lots: squares of 10 to 60 m (about 0.0001 to 0.0007 degrees) on a grid over the zones' part of the city.
      const lots: Area[] = [];
      for (let i = 0; i < 400; i++) {
        lots.push(square(-71.125 + (i % 20) * 0.0029, 42.355 + Math.floor(i / 20) * 0.0017, 0.0001 + (i % 7) * 1e-4));
      }
      let overlapping = 0;
      for (const lot of lots) {
        for (const zone of zones) {
          if (!bboxesMeet(bboxOf(lot), bboxOf(zone))) continue;
          const whole = geodesicArea({
            type: "MultiPolygon",
            coordinates: polygonClipping.intersection(
              polygonsOf(lot) as polygonClipping.MultiPolygon,
              polygonsOf(zone) as polygonClipping.MultiPolygon,
            ),
          });
          const cut = intersectionArea(lot, zone);
          // polygon-clipping rounds where edges cross (some square millimetres either way); under a square centimetre.
          expect(Math.abs(cut - whole)).toBeLessThanOrEqual(1e-4 + 1e-6 * whole);
          if (whole > 0) overlapping++;
        }
      }
      expect(overlapping).toBeGreaterThan(100);
    });
  },
);
