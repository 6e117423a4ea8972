import { describe, expect, it } from "vitest";
import { mulberry32, Random } from "./prng.js";

describe("mulberry32", () => {
  it("gives the reference sequence (checked against an independent implementation)", () => {
    const next = mulberry32(1);
    expect([next(), next(), next()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
    const zero = mulberry32(0);
    expect(zero()).toBe(0.26642920868471265);
  });

  it("stays in [0, 1) and repeats for a seed", () => {
    const [a, b] = [mulberry32(42), mulberry32(42)];
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });
});

describe("Random", () => {
  it("keeps its streams apart by label", () => {
    expect(new Random(5, "streets").next()).toBe(new Random(5, "streets").next());
    expect(new Random(5, "streets").next()).not.toBe(new Random(5, "lots").next());
  });

  it("draws integers within both bounds, and shuffles without losing anything", () => {
    const random = new Random(3);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(random.int(2, 5));
    expect([...seen].sort()).toEqual([2, 3, 4, 5]);
    const items = [...Array(20).keys()];
    const shuffled = random.shuffle(items);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    expect(() => random.pick([])).toThrow(RangeError);
  });
});
