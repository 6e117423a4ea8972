import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { area as turfArea } from "@turf/area";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collect } from "../readers/test-collect.js";
import type { Area, MultiPolygon, Polygon, Position } from "../types.js";
import { geodesicArea, geographicLibArea, tangentPlaneArea } from "./geodesic-area.js";
import { SQUARE_FEET_PER_SQUARE_METRE, toSquareFeet } from "./square-feet.js";
import { convexPolygon, rectangle, square } from "./test-shapes.js";

const A = 6_378_137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E = Math.sqrt(E2);

/**
 * The area between two parallels and two meridians on the WGS 84 ellipsoid, from the authalic latitude formula
 * (Snyder, Map Projections — A Working Manual, eq. 3-12): b²·Δλ/2 · [q(φ₂) − q(φ₁)]. An independent check:
 * it shares nothing with GeographicLib but the ellipsoid.
 */
function quadrangleArea(west: number, south: number, east: number, north: number): number {
  const q = (lat: number) => {
    const s = Math.sin((lat * Math.PI) / 180);
    return s / (1 - E2 * s * s) + Math.log((1 + E * s) / (1 - E * s)) / (2 * E);
  };
  const b2 = A * A * (1 - E2);
  return ((b2 * ((east - west) * Math.PI)) / 180 / 2) * (q(north) - q(south));
}

const ring = (polygon: Polygon) => polygon.coordinates[0] ?? [];

describe("geodesicArea", () => {
  it("measures a 0.001° square at latitude 42.36 as the ellipsoidal quadrangle formula does", () => {
    const lot = square(-71.06, 42.36, 0.001);
    const expected = quadrangleArea(-71.06, 42.36, -71.059, 42.361);
    expect(expected).toBeCloseTo(9_151, 0); // 111.08 m north–south × 82.38 m east–west
    // Its east and west edges are meridians, but its north and south edges are geodesics rather than parallels:
    // over 82 m they bow out by a tenth of a millimetre, and the two bows nearly cancel.
    expect(Math.abs(geodesicArea(lot) / expected - 1)).toBeLessThan(1e-6);
  });

  it("measures a 1° cell at the equator and one at 60° N as the formula does", () => {
    for (const [south, north] of [
      [0, 1],
      [60, 61],
    ] as const) {
      const cell = rectangle(10, south, 11, north);
      // Over 1° the geodesic north and south edges bow away from the parallels; 1e-4 covers it.
      expect(Math.abs(geodesicArea(cell) / quadrangleArea(10, south, 11, north) - 1)).toBeLessThan(1e-4);
    }
  });

  it("agrees with turf's spherical area within the sphere's error (0.5 %)", () => {
    const lot = square(-71.06, 42.36, 0.001);
    expect(Math.abs(geodesicArea(lot) / turfArea(lot) - 1)).toBeLessThan(0.005);
  });

  it("subtracts holes", () => {
    const outer = square(-71.06, 42.36, 0.003);
    const inner = square(-71.059, 42.361, 0.001);
    const withHole: Polygon = { type: "Polygon", coordinates: [ring(outer), [...ring(inner)].reverse()] };
    expect(geodesicArea(withHole)).toBeCloseTo(geodesicArea(outer) - geodesicArea(inner), 6);
    expect(geodesicArea(withHole) / geodesicArea(outer)).toBeCloseTo(8 / 9, 4);
  });

  it("sums the polygons of a MultiPolygon", () => {
    const a = square(-71.06, 42.36, 0.001);
    const b = square(-71.05, 42.36, 0.002);
    const both: MultiPolygon = { type: "MultiPolygon", coordinates: [a.coordinates, b.coordinates] };
    expect(geodesicArea(both)).toBeCloseTo(geodesicArea(a) + geodesicArea(b), 6);
  });

  it("does not care which way a ring runs, or whether it is closed", () => {
    const lot = square(-71.06, 42.36, 0.001);
    const clockwise: Polygon = { type: "Polygon", coordinates: [[...ring(lot)].reverse()] };
    const open: Polygon = { type: "Polygon", coordinates: [ring(lot).slice(0, -1)] };
    expect(geodesicArea(clockwise)).toBeCloseTo(geodesicArea(lot), 6);
    expect(geodesicArea(open)).toBeCloseTo(geodesicArea(lot), 6);
  });

  it("is invariant under rotating the ring's start and reversing it", () => {
    const polygon = fc
      .record({
        lon: fc.double({ min: -179, max: 179, noNaN: true }),
        lat: fc.double({ min: -85, max: 85, noNaN: true }),
        radii: fc.tuple(
          fc.double({ min: 1e-4, max: 0.01, noNaN: true }),
          fc.double({ min: 1e-4, max: 0.01, noNaN: true }),
        ),
        angles: fc.uniqueArray(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 16 }),
      })
      .map(({ lon, lat, radii, angles }) => convexPolygon([lon, lat], radii, angles));
    fc.assert(
      fc.property(polygon, fc.nat(), fc.boolean(), (original, shift, reverse) => {
        const open = ring(original).slice(0, -1);
        const k = shift % open.length;
        let rotated: Position[] = [...open.slice(k), ...open.slice(0, k)];
        if (reverse) rotated = rotated.reverse();
        const [first = []] = rotated;
        const moved: Polygon = { type: "Polygon", coordinates: [[...rotated, first]] };
        const expected = geodesicArea(original);
        expect(Math.abs(geodesicArea(moved) - expected)).toBeLessThan(1e-9 * expected + 1e-6);
      }),
      { numRuns: 200 },
    );
  });
});

const CAMBRIDGE = fileURLToPath(new URL("../../../../../../shared/data/cambridge/", import.meta.url));

describe("geodesicArea on the tangent plane", () => {
  it("leaves an area reaching farther than 10 km from its middle to GeographicLib", () => {
    const cell = rectangle(10, 60, 10.4, 60.2); // 22 × 22 km
    expect(tangentPlaneArea(cell)).toBeUndefined();
    expect(geodesicArea(cell)).toBe(geographicLibArea(cell));
    const lot = square(-71.06, 42.36, 0.001);
    expect(geodesicArea(lot)).toBe(tangentPlaneArea(lot));
  });

  it("measures a 9 km square at 60° N within the proven 1.3 × 10⁻⁶ of GeographicLib", () => {
    // 0.16° of longitude and 0.08° of latitude: the corners lie some 6 km from the middle.
    const square9km = rectangle(10, 60, 10.16, 60.08);
    const plane = tangentPlaneArea(square9km);
    expect(plane).toBeDefined();
    expect(Math.abs((plane ?? 0) / geographicLibArea(square9km) - 1)).toBeLessThan(1.3e-6);
  });

  it.skipIf(!existsSync(CAMBRIDGE))(
    "measures every Cambridge parcel, building and layer polygon as GeographicLib does (../shared/data; skipped where absent)",
    async () => {
      const areas: Area[] = [];
      for (const file of [
        "parcels-fy2014.topojson",
        "buildings-east-cambridge/Buildings.shp",
        "layers/fema-floodplain-500yr.geojson",
        "layers/zoning-districts.geojson",
      ]) {
        for (const record of await collect(`${CAMBRIDGE}${file}`)) {
          const geometry = "feature" in record ? record.feature.geometry : null;
          if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") areas.push(geometry);
        }
      }
      expect(areas.length).toBeGreaterThan(15_000);
      for (const area of areas) {
        const plane = tangentPlaneArea(area);
        expect(plane).toBeDefined();
        // The plane's bound, or GeographicLib's own rounding: it sums each edge's area down to the equator.
        const exact = geographicLibArea(area);
        expect(Math.abs((plane ?? 0) - exact)).toBeLessThan(Math.max(1.3e-6 * exact, 1e-3));
      }
    },
  );
});

describe("toSquareFeet", () => {
  it("uses the international foot, 0.3048 m exactly", () => {
    expect(SQUARE_FEET_PER_SQUARE_METRE).toBeCloseTo(10.763_910_416_7, 9);
    expect(toSquareFeet(100)).toBeCloseTo(1_076.391_041_67, 6);
    expect(toSquareFeet(0.3048 * 0.3048)).toBeCloseTo(1, 12);
  });
});
