import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanRing, isFlat } from "./clean-ring.js";
import { findCrossing } from "./find-crossing.js";
import { nestingProblem } from "./nesting-problem.js";
import { placeHoles } from "./place-holes.js";
import { planarRingArea } from "./planar-ring.js";
import type { Pair } from "./read-polygons.js";
import { renode } from "./renode.js";

// The sweep and the nesting test decide alone whether an area is valid as it is; re-noding (a union with itself)
// decided it before. On random small polygons both must give the same verdict.

/** Valid as it is by the sweep: no rings meet, and each lies where it belongs. */
function validBySweep(polygons: Pair[][][]): boolean {
  return findCrossing(polygons.flat()) === undefined && nestingProblem(polygons) === undefined;
}

/** Valid as it is by the implementation before the sweep: no hole to move, and the union changes nothing. */
function validByUnion(polygons: Pair[][][]): boolean {
  const placed = placeHoles(polygons);
  if ("stray" in placed || placed.moved) return false;
  const renoded = renode(placed.polygons);
  return "polygons" in renoded && !renoded.changed && renoded.polygons.length > 0;
}

/** Rings as validateArea hands them on: cleaned, exteriors counter-clockwise, holes clockwise, none flat. */
function prepared(polygons: Pair[][][]): Pair[][][] {
  const out: Pair[][][] = [];
  for (const rings of polygons) {
    const kept: Pair[][] = [];
    for (const [r, positions] of rings.entries()) {
      const clean = cleanRing(positions);
      if (clean.distinct < 3 || isFlat(clean.ring)) {
        if (r === 0) break;
        continue;
      }
      const area = planarRingArea(clean.ring);
      kept.push((r === 0 ? area < 0 : area > 0) ? clean.ring.slice().reverse() : clean.ring);
    }
    if (kept.length > 0) out.push(kept);
  }
  return out;
}

/** A ring around a random centre, its positions in order of angle (simple) or in random order (often crossing). */
function ringOf(coordinate: fc.Arbitrary<number>, spread: fc.Arbitrary<number>): fc.Arbitrary<Pair[]> {
  return fc
    .record({
      centre: fc.tuple(coordinate, coordinate),
      points: fc.array(fc.tuple(fc.noBias(fc.integer({ min: 0, max: 359_999 })), spread), {
        minLength: 3,
        maxLength: 8,
      }),
      sorted: fc.boolean(),
    })
    .map(({ centre: [x, y], points, sorted }) => {
      const ordered = sorted ? [...points].sort(([a], [b]) => a - b) : points;
      return ordered.map(([angle, radius]): Pair => {
        const t = (angle * Math.PI) / 180_000;
        return [x + radius * Math.cos(t), y + radius * Math.sin(t)];
      });
    });
}

function polygonsOf(ring: fc.Arbitrary<Pair[]>): fc.Arbitrary<Pair[][][]> {
  return fc
    .array(fc.array(ring, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 })
    .map(prepared)
    .filter((polygons) => polygons.length > 0);
}

describe("validity decided by the sweep, against the union it replaces", () => {
  it("gives the same verdict on random polygons with holes, in general position", () => {
    const coordinate = fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((n) => n / 100_000);
    const spread = fc.noBias(fc.integer({ min: 10_000, max: 400_000 })).map((n) => n / 100_000);
    fc.assert(
      fc.property(polygonsOf(ringOf(coordinate, spread)), (polygons) => {
        expect(validBySweep(polygons)).toBe(validByUnion(polygons));
      }),
      { numRuns: Number(process.env.GEOMETRY_RUNS ?? 1000) },
    );
  });

  it("never calls valid what the union would change, on a coarse grid full of touching and shared edges", () => {
    const onGrid = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })), { minLength: 3, maxLength: 8 })
      .map((positions) => positions as Pair[]);
    fc.assert(
      fc.property(polygonsOf(onGrid), (polygons) => {
        if (validBySweep(polygons)) expect(validByUnion(polygons)).toBe(true);
      }),
      { numRuns: Number(process.env.GEOMETRY_RUNS ?? 1000) },
    );
  });
});
