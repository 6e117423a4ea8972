import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import fc from "fast-check";
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

/** A position `x` and `y` metres-ish (thousandths of a degree) from a corner in Cambridge. */
const at = (x: number, y: number): Position => [-71.1 + x * 0.001, 42.36 + y * 0.001];

describe("subdivide", () => {
  // A U-shaped zone 3 units wide and 4 tall whose gap runs from y = 1 to the top: the first cut, at y = 2, crosses
  // both arms, and Sutherland–Hodgman joins their tops by a run along the cut across the gap.
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

/**
 * A position on a grid of 2⁻¹⁴ degrees (about 7 m) near Cambridge: whole steps are exact in binary, and so are the
 * middles of boxes between them, where cuts go.
 */
const onGrid = (x: number, y: number): Position => [-71 + x / 2 ** 14, 42 + y / 2 ** 14];

/** A star-shaped ring around (x, y), a vertex on the grid at each radius: counter-clockwise, closed. */
function star(x: number, y: number, radii: readonly number[]): Position[] {
  const ring = radii.map((radius, i): Position => {
    const angle = (2 * Math.PI * i) / radii.length;
    return onGrid(x + Math.round(radius * Math.cos(angle)), y + Math.round(radius * Math.sin(angle)));
  });
  return [...ring, ring[0] as Position];
}

/** A square ring on the grid, counter-clockwise, or clockwise for a hole. */
function squareRing(x: number, y: number, half: number, hole = false): Position[] {
  const corners = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
    [-1, -1],
  ].map(([dx, dy]) => onGrid(x + (dx as number) * half, y + (dy as number) * half));
  return hole ? corners.reverse() : corners;
}

/** How many of the areas hold the point (turf, boundaries excluded). */
function holding(areas: Area[], point: Position): number {
  return areas.filter((area) => booleanPointInPolygon(point, area, { ignoreBoundary: true })).length;
}

describe("subdivide, by property", () => {
  // A star with a lake, an island with a pond in the lake, and a second star: holes to cut through, rings nested in
  // rings, and vertices on whole coordinates, so that cuts through the middle of a box often meet a vertex.
  const landscape = (radii: readonly number[]): Area => ({
    type: "MultiPolygon",
    coordinates: [
      [star(0, 0, radii), squareRing(0, 0, 400, true)],
      [squareRing(0, 0, 300), squareRing(0, 0, 100, true)],
      [star(3000, 0, radii)],
    ],
  });
  const radii = fc.array(fc.integer({ min: 600, max: 1400 }), { minLength: 8, maxLength: 150 });
  const points = fc.array(
    fc.tuple(fc.double({ min: -1500, max: 4500, noNaN: true }), fc.double({ min: -1500, max: 1500, noNaN: true })),
    { minLength: 20, maxLength: 40 },
  );

  it("cuts into valid parts of few positions that hold every point the area holds, exactly once", () => {
    fc.assert(
      fc.property(radii, fc.integer({ min: 12, max: 80 }), points, (radii, maxPositions, points) => {
        const whole = landscape(radii);
        const parts = subdivide(whole, maxPositions);
        // Small enough to stay whole, or cut.
        expect(parts === undefined).toBe(vertexCount(whole) <= maxPositions);
        if (parts === undefined) return;
        for (const part of parts) {
          expect(vertexCount(part)).toBeLessThanOrEqual(maxPositions);
          expect(validateArea(part, { renode: false })).toEqual({ valid: true, geometry: part, repairs: [] });
        }
        expect(planarArea(parts) / planarArea([whole])).toBeCloseTo(1, 12);
        for (const [x, y] of points) {
          expect(holding(parts, onGrid(x, y))).toBe(holding([whole], onGrid(x, y)));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("moves a cut off the positions lying on its line, into parts valid as they are", () => {
    // A square with a position every grid step and a diamond hole whose corners lie on the square's middle lines.
    const square = densified([onGrid(0, 0), onGrid(8, 0), onGrid(8, 8), onGrid(0, 8)], 8);
    const diamond = [onGrid(4, 2), onGrid(2, 4), onGrid(4, 6), onGrid(6, 4), onGrid(4, 2)];
    const whole: Area = { type: "Polygon", coordinates: [square, diamond] };
    const parts = subdivide(whole, 12) ?? [];
    expect(parts.length).toBeGreaterThanOrEqual(4);
    // The cuts move by a millionth of the box, so the positions they make are rounded: 10 digits, not 12.
    for (const part of parts) {
      expect(validateArea(part, { renode: false })).toEqual({ valid: true, geometry: part, repairs: [] });
    }
    expect(planarArea(parts) / planarArea([whole])).toBeCloseTo(1, 10);
    for (const [x, y] of [
      [1, 1],
      [4, 4],
      [3.9, 3.9],
      [4.1, 2.3],
      [5.1, 3.9],
      [7.5, 7.5],
      [4, 7],
    ]) {
      expect(holding(parts, onGrid(x as number, y as number))).toBe(holding([whole], onGrid(x as number, y as number)));
    }
  });

  it("refuses rings that are not valid: two polygons overlapping", () => {
    const overlapping: Area = {
      type: "MultiPolygon",
      coordinates: [
        [densified([at(0, 0), at(4, 0), at(4, 4), at(0, 4)], 8)],
        [densified([at(2, 0), at(6, 0), at(6, 4), at(2, 4)], 8)],
      ],
    };
    expect(subdivide(overlapping, 16)).toBeUndefined();
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
