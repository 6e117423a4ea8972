import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffMs } from "./backoff.js";

const ALMOST_ONE = 1 - Number.EPSILON;

describe("backoffMs", () => {
  it("doubles the ceiling with each attempt, from baseMs", () => {
    const ceilings = [1, 2, 3, 4, 5].map((attempt) => backoffMs(attempt, { random: () => ALMOST_ONE }) + 1);
    expect(ceilings).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(backoffMs(3, { random: () => 0.5 })).toBe(2000);
  });

  it("never waits longer than maxMs, however many attempts", () => {
    expect(backoffMs(12, { random: () => ALMOST_ONE })).toBeLessThan(3_600_000);
    expect(backoffMs(13, { random: () => ALMOST_ONE })).toBe(3_599_999);
    expect(backoffMs(10_000, { random: () => ALMOST_ONE })).toBe(3_599_999);
    expect(backoffMs(40, { baseMs: 50, maxMs: 5000, random: () => ALMOST_ONE })).toBe(4999);
  });

  it("jitters over the whole range, down to no wait at all (full jitter)", () => {
    expect(backoffMs(8, { random: () => 0 })).toBe(0);
    const delays = Array.from({ length: 2000 }, () => backoffMs(6));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(32_000);
    // Uniform on [0, 32 s): the mean is near 16 s and both halves are used.
    const mean = delays.reduce((sum, delay) => sum + delay, 0) / delays.length;
    expect(mean).toBeGreaterThan(14_000);
    expect(mean).toBeLessThan(18_000);
  });

  it("stays within [0, min(cap, base · 2^(attempt − 1))) and grows with the attempt", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.double({ min: 0, max: ALMOST_ONE, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        (attempt, random, baseMs, maxMs) => {
          const options = { baseMs, maxMs, random: () => random };
          const delay = backoffMs(attempt, options);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(Math.min(maxMs, baseMs * 2 ** (attempt - 1)));
          expect(backoffMs(attempt + 1, options)).toBeGreaterThanOrEqual(delay);
        },
      ),
    );
  });

  it("treats an attempt below 1 as the first", () => {
    expect(backoffMs(0, { random: () => ALMOST_ONE })).toBe(999);
    expect(backoffMs(-3, { random: () => ALMOST_ONE })).toBe(999);
  });
});
