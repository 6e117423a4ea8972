import { describe, expect, it } from "vitest";
import { EdgeStrips, type Segment } from "./edge-strips.js";
import type { Pair } from "./read-polygons.js";

/** A deterministic stream of numbers in [0, 1). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function meets(edge: Segment, [minX, minY, maxX, maxY]: number[]): boolean {
  const { a, b } = edge;
  return !(
    Math.max(a[0], b[0]) < (minX as number) ||
    Math.min(a[0], b[0]) > (maxX as number) ||
    Math.max(a[1], b[1]) < (minY as number) ||
    Math.min(a[1], b[1]) > (maxY as number)
  );
}

describe("EdgeStrips", () => {
  const next = numbers(42);
  const point = (): Pair => [next() * 10, next() * 10];
  // Short edges, long ones spanning many strips, horizontal ones on one latitude.
  const edges: Segment[] = Array.from({ length: 600 }, (_, i) => {
    const a = point();
    if (i % 10 === 0) return { a, b: point() };
    if (i % 10 === 1) return { a, b: [next() * 10, a[1]] };
    return { a, b: [a[0] + next() * 0.2, a[1] + next() * 0.2] };
  });
  const strips = new EdgeStrips(edges);

  it("finds every edge whose box meets a box, each once, and no other", () => {
    const found: Segment[] = [];
    for (let query = 0; query < 300; query++) {
      const [x, y] = point();
      const box = [x, y, x + next() * 2, y + next() * 2];
      const count = strips.meeting(box[0] as number, box[1] as number, box[2] as number, box[3] as number, found);
      const these = found.slice(0, count);
      expect(new Set(these).size).toBe(count);
      expect(new Set(these)).toEqual(new Set(edges.filter((edge) => meets(edge, box))));
    }
  });

  it("offers, at a latitude, every edge spanning it", () => {
    for (let query = 0; query < 300; query++) {
      const y = query === 0 ? 10 : query === 1 ? -1 : next() * 10;
      const offered = new Set(strips.atLatitude(y).map((index) => strips.edges[index]));
      const spanning = edges.filter(({ a, b }) => Math.min(a[1], b[1]) <= y && y <= Math.max(a[1], b[1]));
      for (const edge of spanning) expect(offered.has(edge)).toBe(true);
    }
  });

  it("holds edges all on one latitude, and none", () => {
    const flat = new EdgeStrips(Array.from({ length: 50 }, (_, i) => ({ a: [i, 5] as Pair, b: [i + 1, 5] as Pair })));
    expect(flat.meeting(10.5, 4, 20.5, 6, [])).toBe(11);
    expect(new EdgeStrips([]).meeting(0, 0, 1, 1, [])).toBe(0);
    expect(new EdgeStrips([]).atLatitude(0)).toEqual([]);
  });
});
