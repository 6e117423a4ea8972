import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { REAL_DATA_TIMEOUT_MS } from "../../test/real-data-timeout.js";
import { collect } from "../readers/test-collect.js";
import type { Area } from "../types.js";
import { distanceBetweenAreas } from "./distance-between-areas.js";
import { intersects } from "./intersects.js";
import { boxGap, distanceBetweenBoundaries, LocalPlane } from "./local-plane.js";
import { GEODESIC, WGS84 } from "./wgs84.js";

const BUILDINGS = fileURLToPath(
  new URL("../../../../../../shared/data/cambridge/buildings-east-cambridge/Buildings.shp", import.meta.url),
);

/** The bound for short distances against GeographicLib: 1 cm or 0.01 %, whichever is larger. */
const allowed = (metres: number) => Math.max(0.01, metres * 1e-4);

describe("LocalPlane", () => {
  it("puts its origin at 0, 0 and a point 100 m north (on the ellipsoid) 100 m up the y axis", () => {
    const plane = new LocalPlane([-71.08, 42.37]);
    const lat = WGS84.Direct(42.37, -71.08, 0, 100, GEODESIC.LATITUDE).lat2 ?? 0;
    const north = plane.area({
      type: "Polygon",
      coordinates: [
        [
          [-71.08, 42.37],
          [-71.08, lat],
          [-71.08, 42.37],
        ],
      ],
    });
    expect(north.rings[0]?.[0]).toBeCloseTo(0, 9);
    expect(north.rings[0]?.[2]).toBeCloseTo(0, 6);
    expect(north.rings[0]?.[3]).toBeCloseTo(100, 2);
  });

  it("measures the gap between boxes as a lower bound, 0 when they meet", () => {
    const plane = new LocalPlane([-71.08, 42.37]);
    const square = (lon: number): Area => ({
      type: "Polygon",
      coordinates: [
        [
          [lon, 42.37],
          [lon + 0.0001, 42.37],
          [lon + 0.0001, 42.3701],
          [lon, 42.3701],
          [lon, 42.37],
        ],
      ],
    });
    const a = plane.area(square(-71.08));
    const b = plane.area(square(-71.0798));
    expect(boxGap(a, a)).toBe(0);
    expect(boxGap(a, b)).toBeGreaterThan(8);
    expect(boxGap(a, b)).toBeLessThanOrEqual(distanceBetweenBoundaries(a, b));
    expect(distanceBetweenBoundaries(a, b)).toBeCloseTo(distanceBetweenAreas(square(-71.08), square(-71.0798)), 3);
  });
});

describe.skipIf(!existsSync(BUILDINGS))(
  "planar distances between the real Cambridge buildings, against GeographicLib (../shared/data; skipped where absent)",
  { timeout: REAL_DATA_TIMEOUT_MS },
  () => {
    it("agree with distanceBetweenAreas within 1 cm or 0.01 % from touching to 3.2 km, and in fact within 2 mm", async () => {
      const footprints: Area[] = [];
      for (const record of await collect(BUILDINGS)) {
        const geometry = "feature" in record ? record.feature.geometry : null;
        if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") footprints.push(geometry);
      }
      expect(footprints.length).toBeGreaterThan(2000);

      let pairs = 0;
      let touching = 0;
      let within10 = 0;
      let beyond1km = 0;
      let worst = 0;
      // Every 40th building against every 23rd: pairs from wall to wall across the whole district.
      for (let i = 0; i < footprints.length; i += 40) {
        const from = footprints[i] as Area;
        const plane = new LocalPlane(from.type === "Polygon" ? (from.coordinates[0]?.[0] ?? [0, 0]) : [0, 0]);
        const fromPlanar = plane.area(from);
        for (let j = (i % 23) + 1; j < footprints.length; j += 23) {
          const to = footprints[j] as Area;
          if (j === i) continue;
          const oracle = distanceBetweenAreas(from, to);
          if (oracle > 3200) continue;
          const planar = intersects(from, to) ? 0 : distanceBetweenBoundaries(fromPlanar, plane.area(to));
          expect(
            Math.abs(planar - oracle),
            `building ${i} to ${j}: ${planar} m against ${oracle} m`,
          ).toBeLessThanOrEqual(allowed(oracle));
          worst = Math.max(worst, Math.abs(planar - oracle));
          pairs += 1;
          if (oracle === 0) touching += 1;
          if (oracle > 0 && oracle <= 10) within10 += 1;
          if (oracle > 1000) beyond1km += 1;
        }
      }
      expect(pairs).toBeGreaterThan(2000);
      expect(beyond1km).toBeGreaterThan(500);
      expect(within10 + touching).toBeGreaterThan(0);
      expect(worst).toBeLessThan(0.002);
    });

    it("agree for every building with its own neighbours within 100 m", async () => {
      const footprints: Area[] = [];
      for (const record of await collect(BUILDINGS)) {
        const geometry = "feature" in record ? record.feature.geometry : null;
        if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") footprints.push(geometry);
      }
      let near = 0;
      for (let i = 0; i < footprints.length; i += 30) {
        const from = footprints[i] as Area;
        const plane = new LocalPlane(from.type === "Polygon" ? (from.coordinates[0]?.[0] ?? [0, 0]) : [0, 0]);
        const fromPlanar = plane.area(from);
        for (const [j, to] of footprints.entries()) {
          if (j === i) continue;
          const toPlanar = plane.area(to);
          if (boxGap(fromPlanar, toPlanar) > 100) continue;
          const oracle = distanceBetweenAreas(from, to);
          const planar = intersects(from, to) ? 0 : distanceBetweenBoundaries(fromPlanar, toPlanar);
          expect(Math.abs(planar - oracle)).toBeLessThanOrEqual(0.002);
          if (oracle <= 10) near += 1;
        }
      }
      expect(near).toBeGreaterThan(50);
    });
  },
);
