import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import polygonClipping from "polygon-clipping";
import { describe, expect, it } from "vitest";
import { REAL_DATA_TIMEOUT_MS } from "../../test/real-data-timeout.js";
import { collect } from "../readers/test-collect.js";
import type { Area, BBox } from "../types.js";
import { relateAreas } from "./areas-meet.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import { clipToBox } from "./clip-to-box.js";
import { overlapArea } from "./overlap-area.js";
import { planarRingArea } from "./planar-ring.js";
import { polygonsOf } from "./positions.js";
import { rectangle, square } from "./test-shapes.js";

const CAMBRIDGE = fileURLToPath(new URL("../../../../../../shared/data/cambridge/", import.meta.url));

/** The overlap as polygon-clipping builds it, measured by the shoelace formula: the oracle. */
function clippedOverlap(a: Area, b: Area): number {
  const shape = polygonClipping.intersection(
    polygonsOf(a) as polygonClipping.MultiPolygon,
    polygonsOf(b) as polygonClipping.MultiPolygon,
  );
  let total = 0;
  for (const [exterior, ...holes] of shape) {
    total += Math.abs(planarRingArea(exterior ?? []));
    for (const hole of holes) total -= Math.abs(planarRingArea(hole));
  }
  return total;
}

function areaOf(area: Area): number {
  return clippedOverlap(area, area);
}

/** A square with a square hole: the outer `size` degrees from `[lon, lat]`, the hole its middle third. */
function frame(lon: number, lat: number, size: number): Area {
  const third = size / 3;
  const hole = square(lon + third, lat + third, third).coordinates[0] ?? [];
  return { type: "Polygon", coordinates: [square(lon, lat, size).coordinates[0] ?? [], [...hole].reverse()] };
}

describe("overlapArea", () => {
  // Two lots side by side on a Boston street; the lot line runs along -71.059.
  const lot7 = rectangle(-71.06, 42.36, -71.059, 42.3605);
  const lot8 = rectangle(-71.059, 42.36, -71.058, 42.3605);

  it("measures a rowhouse straddling a lot line on each side of it", () => {
    const rowhouse = rectangle(-71.0597, 42.3601, -71.0587, 42.3604);
    const whole = areaOf(rowhouse);
    expect(overlapArea(rowhouse, lot7) / whole).toBeCloseTo(0.7, 9);
    expect(overlapArea(rowhouse, lot8) / whole).toBeCloseTo(0.3, 9);
    expect(overlapArea(lot8, rowhouse) / whole).toBeCloseTo(0.3, 9);
  });

  it("counts a wall drawn on the lot line once on its own side and not at all on the other", () => {
    const shed = rectangle(-71.0598, 42.3601, -71.059, 42.3603);
    expect(overlapArea(shed, lot7)).toBeCloseTo(areaOf(shed), 15);
    expect(overlapArea(shed, lot8)).toBe(0);
    expect(overlapArea(lot8, shed)).toBe(0);
    expect(overlapArea(lot7, lot7)).toBeCloseTo(areaOf(lot7), 15);
  });

  it("takes holes and every part of a MultiPolygon, whatever the rings' winding", () => {
    const outer = frame(0, 0, 3);
    expect(overlapArea(outer, square(1.25, 1.25, 0.5))).toBe(0);
    expect(overlapArea(square(0.5, 0.5, 2), outer)).toBeCloseTo(4 - 1, 12);
    const clockwise: Area = { type: "Polygon", coordinates: [[...(square(2, 2, 2).coordinates[0] ?? [])].reverse()] };
    expect(overlapArea(clockwise, outer)).toBeCloseTo(1, 12);
    const parts: Area = {
      type: "MultiPolygon",
      coordinates: [square(0, 0, 1).coordinates, square(5, 5, 1).coordinates],
    };
    expect(overlapArea(parts, rectangle(0.5, 0, 5.5, 6))).toBeCloseTo(0.5 + 0.5, 12);
  });

  it("answers as polygon clipping for rectangles on a grid, where edges and corners coincide", () => {
    const cell = fc.integer({ min: 0, max: 6 });
    const box = fc
      .tuple(cell, cell, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }))
      .map(([x, y, w, h]) => rectangle(-71 + x * 1e-4, 42 + y * 1e-4, -71 + (x + w) * 1e-4, 42 + (y + h) * 1e-4));
    fc.assert(
      fc.property(box, box, (a, b) => {
        expect(overlapArea(a, b)).toBeCloseTo(clippedOverlap(a, b), 17);
      }),
      { numRuns: 500 },
    );
  });
  it("answers as polygon clipping for rings of thousands of vertices, shared ones and grid-aligned edges included", () => {
    // Star-shaped rings (each vertex at its own angle, so never self-crossing) around nearby centres: their edges
    // cross hundreds of times, the case the edges' strips index rather than compare all with all.
    const star = (lon: number, lat: number, vertices: number, seed: number): Area => {
      const ring = Array.from({ length: vertices }, (_, i) => {
        const angle = (2 * Math.PI * i) / vertices;
        const radius = 1e-3 * (1 + 0.3 * Math.sin(i * seed) ** 2);
        return [lon + radius * Math.cos(angle), lat + radius * Math.sin(angle)];
      });
      return { type: "Polygon", coordinates: [[...ring, ring[0] as number[]]] };
    };
    const lot = star(-71.1, 42.37, 3000, 7);
    for (const footprint of [
      star(-71.1003, 42.3702, 2000, 3),
      star(-71.1, 42.37, 3000, 7),
      square(-71.1, 42.37, 5e-4),
    ]) {
      expect(overlapArea(footprint, lot)).toBeCloseTo(clippedOverlap(footprint, lot), 15);
      expect(overlapArea(lot, footprint)).toBeCloseTo(clippedOverlap(footprint, lot), 15);
    }
  });
});

describe.skipIf(!existsSync(CAMBRIDGE))(
  "overlapArea and relateAreas on the real Cambridge buildings and parcels, against polygon clipping (../shared/data; skipped where absent)",
  { timeout: REAL_DATA_TIMEOUT_MS },
  () => {
    it("measures every building's overlap with every parcel near it as polygon clipping does", async () => {
      const buildings: Area[] = [];
      for (const record of await collect(`${CAMBRIDGE}buildings-east-cambridge/Buildings.shp`)) {
        const geometry = "feature" in record ? record.feature.geometry : null;
        if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") buildings.push(geometry);
      }
      const box = bboxOf({ type: "MultiPolygon", coordinates: buildings.flatMap(polygonsOf) });
      const parcels: Array<{ area: Area; box: BBox }> = [];
      for (const record of await collect(`${CAMBRIDGE}parcels-fy2014.topojson`)) {
        const geometry = "feature" in record ? record.feature.geometry : null;
        if ((geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") && bboxesMeet(bboxOf(geometry), box)) {
          parcels.push({ area: geometry, box: bboxOf(geometry) });
        }
      }
      const seen = { within: 0, crossing: 0, apart: 0 };
      for (let i = 0; i < buildings.length; i += 6) {
        const building = buildings[i] as Area;
        const whole = areaOf(building);
        const near = bboxOf(building);
        const around: BBox = [near[0] - 1e-4, near[1] - 1e-4, near[2] + 1e-4, near[3] + 1e-4];
        for (const { area: parcel, box: parcelBox } of parcels) {
          if (!bboxesMeet(near, parcelBox)) continue;
          // The oracle clips the parcel cut to the building's surroundings, which covers the same there (see
          // clipToBox's own test); whole, the river's and the roads' parcels would take it minutes.
          const expected = clippedOverlap(building, { type: "MultiPolygon", coordinates: clipToBox(parcel, around) });
          const relation = relateAreas(building, parcel);
          seen[relation]++;
          if (relation === "apart") expect(expected).toBe(0);
          if (relation === "within") expect(expected / whole).toBeCloseTo(1, 9);
          expect(Math.abs(overlapArea(building, parcel) - expected) / whole).toBeLessThan(1e-9);
        }
      }
      expect(seen.within).toBeGreaterThan(100);
      expect(seen.crossing).toBeGreaterThan(300);
      expect(seen.apart).toBeGreaterThan(600);
    });
  },
);
