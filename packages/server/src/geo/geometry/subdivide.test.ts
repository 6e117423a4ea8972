import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { collect } from "../readers/test-collect.js";
import type { Area, Position } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import { geodesicArea } from "./geodesic-area.js";
import { intersectionArea } from "./intersection-area.js";
import { intersects } from "./intersects.js";
import { planarRingArea } from "./planar-ring.js";
import { polygonsOf, vertexCount } from "./positions.js";
import { mergeParts, PART_MAX_POSITIONS, subdivide } from "./subdivide.js";
import { rectangle } from "./test-shapes.js";
import { validateArea } from "./validate-area.js";

const CAMBRIDGE = fileURLToPath(new URL("../../../../../../shared/data/cambridge/", import.meta.url));

/** A ring through `corners` with `between` positions added on each side, so that it has many positions. */
function densified(corners: Position[], between: number): Position[] {
  const ring: Position[] = [];
  for (const [i, [lon, lat]] of corners.entries()) {
    const [nextLon, nextLat] = corners[(i + 1) % corners.length] as Position;
    for (let step = 0; step < between; step++) {
      const t = step / between;
      ring.push([
        (lon as number) + t * ((nextLon as number) - (lon as number)),
        (lat as number) + t * ((nextLat as number) - (lat as number)),
      ]);
    }
  }
  return [...ring, ring[0] as Position];
}

/** The areas' summed area in the plane of longitude and latitude, where polygon-clipping cuts them. */
function planarArea(areas: Area[]): number {
  let total = 0;
  for (const area of areas) {
    for (const [exterior, ...holes] of polygonsOf(area)) {
      total += Math.abs(planarRingArea(exterior ?? []));
      for (const hole of holes) total -= Math.abs(planarRingArea(hole));
    }
  }
  return total;
}

describe("subdivide", () => {
  // A U-shaped zone 3 units wide and 4 tall whose gap runs from y = 1 to the top: the first cut, at y = 2, crosses
  // both arms, and Sutherland–Hodgman joins their tops by a run along the cut across the gap.
  const unit = 0.001;
  const at = (x: number, y: number): Position => [-71.1 + x * unit, 42.36 + y * unit];
  const corners = [at(0, 0), at(3, 0), at(3, 4), at(2, 4), at(2, 1), at(1, 1), at(1, 4), at(0, 4)];
  const zone: Area = { type: "Polygon", coordinates: [densified(corners, 8)] };

  it("leaves an area of few positions whole", () => {
    expect(subdivide(rectangle(-71.1, 42.36, -71.09, 42.37))).toBeUndefined();
  });

  it("cuts a U across its arms into valid parts of few positions covering exactly the U", () => {
    const parts = subdivide(zone, 16) ?? [];
    expect(parts.length).toBeGreaterThan(4);
    for (const part of parts) {
      expect(vertexCount(part)).toBeLessThanOrEqual(16);
      expect(validateArea(part).valid).toBe(true);
    }
    expect(planarArea(parts) / planarArea([zone])).toBeCloseTo(1, 12);
  });

  it("never has a lot in the gap between the arms meet a part, though it crosses the cut", () => {
    const parts = subdivide(zone, 16) ?? [];
    const inGap = rectangle(
      at(1.3, 1.8)[0] as number,
      at(1.3, 1.8)[1] as number,
      at(1.7, 2.2)[0] as number,
      at(1.7, 2.2)[1] as number,
    );
    expect(intersects(zone, inGap)).toBe(false);
    expect(parts.filter((part) => intersects(part, inGap))).toEqual([]);
    const acrossArm = rectangle(
      at(0.5, 1.8)[0] as number,
      at(0.5, 1.8)[1] as number,
      at(1.5, 2.2)[0] as number,
      at(1.5, 2.2)[1] as number,
    );
    expect(intersectionArea(acrossArm, mergeParts(parts)) / intersectionArea(acrossArm, zone)).toBeCloseTo(1, 9);
  });
});

describe.skipIf(!existsSync(CAMBRIDGE))("subdivide on Cambridge's flood zones and zoning districts", () => {
  it("gives the same answers for every lot as the whole zone: whether it meets it, and by how much", async () => {
    const lots: Area[] = [];
    for (const record of await collect(`${CAMBRIDGE}parcels-fy2014.topojson`)) {
      const geometry = "feature" in record ? record.feature.geometry : null;
      if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") lots.push(geometry);
    }
    let zonesSplit = 0;
    let lotsCompared = 0;
    for (const layer of ["fema-floodplain-100yr", "fema-floodplain-500yr", "zoning-districts"]) {
      for (const record of await collect(`${CAMBRIDGE}layers/${layer}.geojson`)) {
        if (!("feature" in record)) continue;
        const checked = validateArea(record.feature.geometry as Area);
        if (!checked.valid) continue;
        const whole = checked.geometry;
        const parts = subdivide(whole);
        if (!parts) continue;
        zonesSplit += 1;
        for (const part of parts) expect(vertexCount(part)).toBeLessThanOrEqual(PART_MAX_POSITIONS);
        expect(planarArea(parts) / planarArea([whole]), `${layer} ${record.feature.id}`).toBeCloseTo(1, 11);
        // Put back together, on the ellipsoid: square millimetres of a zone.
        const merged = geodesicArea(mergeParts(parts));
        expect(merged / geodesicArea(whole), `${layer} ${record.feature.id}`).toBeCloseTo(1, 7);

        // Every 5th lot meeting the zone's box (inside it, outside it and across its edge), against the parts
        // meeting its own box put back together, as an order reads them.
        const box = bboxOf(whole);
        for (const lot of lots.filter((lot) => bboxesMeet(bboxOf(lot), box)).filter((_, i) => i % 5 === 0)) {
          const near = parts.filter((part) => bboxesMeet(bboxOf(part), bboxOf(lot)));
          const meets = intersects(whole, lot);
          expect(near.length > 0 && intersects(mergeParts(near), lot)).toBe(meets);
          if (meets) {
            const overlap = intersectionArea(lot, whole);
            const difference = Math.abs(intersectionArea(lot, mergeParts(near)) - overlap);
            expect(difference, `${layer} ${record.feature.id}`).toBeLessThanOrEqual(0.01);
          }
          lotsCompared += 1;
        }
      }
    }
    expect(zonesSplit).toBeGreaterThanOrEqual(30);
    expect(lotsCompared).toBeGreaterThan(1000);
  }, 120_000);
});
