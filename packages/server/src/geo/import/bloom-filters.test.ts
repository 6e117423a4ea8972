import { describe, expect, it } from "vitest";
import { BloomFilters, type HashedKey } from "./bloom-filters.js";

/** Keys spread as a hash's are: consecutive numbers through two multiplicative mixes. */
function key(n: number): HashedKey {
  return { a: Math.imul(n, 0x9e3779b1) ^ (n >>> 7), b: Math.imul(n ^ 0x5bd1e995, 0x85ebca77) };
}

function mistakenAmong(filters: BloomFilters, from: number, count: number): number {
  let mistaken = 0;
  for (let n = from; n < from + count; n++) if (filters.has(key(n))) mistaken += 1;
  return mistaken / count;
}

describe("BloomFilters", () => {
  it("holds every key added, and takes few others for added, through filters that fill and grow", () => {
    const filters = new BloomFilters();
    for (let n = 0; n < 200_000; n++) filters.add(key(n));
    for (let n = 0; n < 200_000; n++) if (!filters.has(key(n))) expect.fail(`${n} was added`);
    expect(mistakenAmong(filters, 1_000_000, 100_000)).toBeLessThan(0.03);
  });

  it("stays within its bound: past it, every key is taken for added, those added before and after included", () => {
    // Room for the first filter (65,536 keys) and the second (131,072), not for the third.
    const filters = new BloomFilters(400_000);
    for (let n = 0; n < 196_608; n++) filters.add(key(n));
    expect(mistakenAmong(filters, 1_000_000, 100_000)).toBeLessThan(0.03);
    for (let n = 196_608; n < 250_000; n++) filters.add(key(n));
    for (let n = 0; n < 250_000; n++) if (!filters.has(key(n))) expect.fail(`${n} was added`);
    expect(mistakenAmong(filters, 1_000_000, 1_000)).toBe(1);
  });
});
