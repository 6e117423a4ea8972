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

  it("tests every edge whose box meets a box, each once, and no other", () => {
    for (let query = 0; query < 300; query++) {
      const [x, y] = point();
      const box = [x, y, x + next() * 2, y + next() * 2];
      const tested: Segment[] = [];
      strips.someMeeting(box[0] as number, box[1] as number, box[2] as number, box[3] as number, (edge) => {
        tested.push(edge);
        return false;
      });
      expect(new Set(tested).size).toBe(tested.length);
      expect(new Set(tested)).toEqual(new Set(edges.filter((edge) => meets(edge, box))));
    }
  });

  it("stops at the first edge that passes", () => {
    let tested = 0;
    expect(strips.someMeeting(0, 0, 10, 10, () => ++tested === 3)).toBe(true);
    expect(tested).toBe(3);
    expect(strips.someMeeting(20, 20, 30, 30, () => true)).toBe(false);
  });

  it("offers, at a latitude, every edge spanning it", () => {
    for (let query = 0; query < 300; query++) {
      const y = query === 0 ? 10 : query === 1 ? -1 : next() * 10;
      const offered = new Set<Segment>();
      strips.someAtLatitude(y, (edge) => {
        offered.add(edge);
        return false;
      });
      const spanning = edges.filter(({ a, b }) => Math.min(a[1], b[1]) <= y && y <= Math.max(a[1], b[1]));
      for (const edge of spanning) expect(offered.has(edge)).toBe(true);
    }
  });

  it("holds edges all on one latitude, and none", () => {
    const flat = new EdgeStrips(Array.from({ length: 50 }, (_, i) => ({ a: [i, 5] as Pair, b: [i + 1, 5] as Pair })));
    let count = 0;
    flat.someMeeting(10.5, 4, 20.5, 6, () => ++count > 100);
    expect(count).toBe(11);
    expect(new EdgeStrips([]).someMeeting(0, 0, 1, 1, () => true)).toBe(false);
  });
});
