import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff-delay";

describe("backoffDelay", () => {
  it("polls about every second at first, then backs off to the ceiling", () => {
    expect([1, 2, 5].map((calls) => backoffDelay(calls))).toEqual([1000, 1000, 1000]);
    expect(backoffDelay(6)).toBe(1500);
    expect(backoffDelay(7)).toBe(2250);
    expect(backoffDelay(40)).toBe(30_000);
  });
});
