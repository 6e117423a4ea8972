import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanRing } from "./clean-ring.js";
import { findCrossing } from "./find-crossing.js";
import type { Pair } from "./read-polygons.js";
import { starPolygon } from "./test-shapes.js";

const closed = (...positions: Pair[]): Pair[] => [...positions, positions[0] as Pair];
const SQUARE = closed([0, 0], [4, 0], [4, 4], [0, 4]);

describe("findCrossing", () => {
  it("finds nothing in rings that keep apart, with collinear positions, verticals and a hole", () => {
    expect(findCrossing([SQUARE])).toBeUndefined();
    expect(findCrossing([closed([0, 0], [2, 0], [4, 0], [4, 4], [0, 4], [0, 2])])).toBeUndefined();
    expect(findCrossing([SQUARE, closed([1, 1], [1, 3], [3, 3], [3, 1])])).toBeUndefined();
    expect(findCrossing([SQUARE, closed([5, 0], [6, 0], [6, 1])])).toBeUndefined();
  });

  it("finds a bow-tie's crossing", () => {
    expect(findCrossing([closed([0, 0], [1, 1], [1, 0], [0, 1])])).toEqual({ ring: 0, other: 0 });
  });

  it("finds a ring touching itself at a position, or with a position on its own edge", () => {
    expect(findCrossing([closed([0, 0], [2, 0], [1, 1], [2, 2], [0, 2], [1, 1])])).toEqual({ ring: 0, other: 0 });
    expect(findCrossing([closed([0, 0], [4, 0], [2, 2], [4, 4], [0, 4], [2, 0.5], [1, 0])])).toBeDefined();
  });

  it("finds an edge folding back along the one before (a spike)", () => {
    expect(findCrossing([closed([0, 0], [4, 0], [4, 4], [2, 4], [2, 6], [2, 5], [0, 4])])).toBeDefined();
  });

  it("finds rings touching at a position, sharing an edge or a part of one, and a hole crossing its ring", () => {
    expect(findCrossing([SQUARE, closed([4, 4], [5, 4], [5, 5])])).toEqual({ ring: 0, other: 1 });
    expect(findCrossing([SQUARE, closed([4, 0], [6, 0], [6, 4], [4, 4])])).toBeDefined();
    expect(findCrossing([SQUARE, closed([4, 1], [6, 1], [6, 3], [4, 3])])).toBeDefined();
    expect(findCrossing([SQUARE, closed([3, 1], [5, 1], [5, 3], [3, 3])])).toEqual({ ring: 0, other: 1 });
  });

  it("tells a position a rounding error off an edge from one on it", () => {
    const diagonal = closed([-12, -12], [24, 24], [30, 0]);
    expect(findCrossing([diagonal, closed([0.5, 0.5], [0, 1], [-1, 0])])).toEqual({ ring: 0, other: 1 });
    expect(findCrossing([diagonal, closed([0.5, 0.5 + 2 ** -53], [0, 1], [-1, 0])])).toBeUndefined();
  });

  it("finds the crossing of the attacker's star polygon, and none in a ring of 10,000 positions", () => {
    expect(findCrossing([starPolygon([-71.06, 42.36], 0.001, 3200)])).toBeDefined();
    const circle = Array.from({ length: 10_000 }, (_, i): Pair => {
      const t = (2 * Math.PI * i) / 10_000;
      return [-71.06 + 0.001 * Math.cos(t), 42.36 + 0.001 * Math.sin(t) * (1 + 0.2 * Math.sin(50 * t))];
    });
    expect(findCrossing([closed(...circle)])).toBeUndefined();
  });

  it.each([
    ["the sweep", 0],
    ["pairs of segments", Number.POSITIVE_INFINITY],
  ])(
    "agrees with testing every pair of edges, on rings of a small grid (every degenerate case): %s",
    (_, pairwiseAtMost) => {
      const ring = fc
        .array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), { minLength: 3, maxLength: 9 })
        .map((positions) => cleanRing(positions as Pair[]))
        .filter((clean) => clean.distinct >= 3 && clean.ring.length >= 4)
        .map((clean) => clean.ring);
      fc.assert(
        fc.property(fc.array(ring, { minLength: 1, maxLength: 3 }), (rings) => {
          expect(findCrossing(rings, pairwiseAtMost) !== undefined).toBe(meetByEveryPair(rings));
        }),
        { numRuns: Number(process.env.GEOMETRY_RUNS ?? 3000) },
      );
    },
  );
});

/** The O(n²) reference on whole-number positions, where plain arithmetic is exact. */
function meetByEveryPair(rings: Pair[][]): boolean {
  const positions = rings.flatMap((ring) => ring.slice(0, -1).map(([x, y]) => `${x},${y}`));
  if (new Set(positions).size < positions.length) return true;
  const edges = rings.flatMap((ring, r) =>
    ring.slice(0, -1).map((a, i) => ({ r, i, n: ring.length - 1, a, b: ring[i + 1] as Pair })),
  );
  for (const [k, s] of edges.entries()) {
    for (const t of edges.slice(k + 1)) {
      const consecutive = s.r === t.r && ((s.i + 1) % s.n === t.i || (t.i + 1) % t.n === s.i);
      if (!consecutive) {
        if (share(s.a, s.b, t.a, t.b)) return true;
        continue;
      }
      const joint = s.b === t.a || sameAt(s.b, t.a) ? s.b : s.a;
      const p = sameAt(s.a, joint) ? s.b : s.a;
      const q = sameAt(t.a, joint) ? t.b : t.a;
      const cross = (p[0] - joint[0]) * (q[1] - joint[1]) - (p[1] - joint[1]) * (q[0] - joint[0]);
      const dot = (p[0] - joint[0]) * (q[0] - joint[0]) + (p[1] - joint[1]) * (q[1] - joint[1]);
      if (cross === 0 && dot > 0) return true;
    }
  }
  return false;
}

function sameAt(p: Pair, q: Pair): boolean {
  return p[0] === q[0] && p[1] === q[1];
}

function share(a: Pair, b: Pair, c: Pair, d: Pair): boolean {
  const turn = (p: Pair, q: Pair, r: Pair) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const on = (p: Pair, q: Pair, r: Pair) =>
    Math.min(p[0], q[0]) <= r[0] &&
    r[0] <= Math.max(p[0], q[0]) &&
    Math.min(p[1], q[1]) <= r[1] &&
    r[1] <= Math.max(p[1], q[1]);
  const [d1, d2, d3, d4] = [turn(a, b, c), turn(a, b, d), turn(c, d, a), turn(c, d, b)];
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (
    (d1 === 0 && on(a, b, c)) || (d2 === 0 && on(a, b, d)) || (d3 === 0 && on(c, d, a)) || (d4 === 0 && on(c, d, b))
  );
}
