import { describe, expect, it } from "vitest";
import { defaultRefreshMargin, refreshDelay } from "./refresh-delay.js";

describe("refreshDelay", () => {
  it("refreshes the margin before expiry, or halfway for short tokens", () => {
    expect(refreshDelay(3_600_000, 120_000)).toBe(3_480_000);
    expect(refreshDelay(240_001, 120_000)).toBe(120_001);
    expect(refreshDelay(240_000, 120_000)).toBe(120_000);
    expect(refreshDelay(10_000, 120_000)).toBe(5_000);
  });

  it("by default renews a minute before the earliest warning, never under two minutes", () => {
    expect(defaultRefreshMargin([300_000, 60_000])).toBe(360_000);
    expect(defaultRefreshMargin([30_000])).toBe(120_000);
    expect(defaultRefreshMargin([])).toBe(120_000);
  });
});
