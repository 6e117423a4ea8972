import { describe, expect, it } from "vitest";
import { orientation } from "./orientation.js";

describe("orientation", () => {
  it("answers counter-clockwise, clockwise and collinear", () => {
    expect(orientation([0, 0], [1, 0], [0, 1])).toBe(1);
    expect(orientation([0, 0], [0, 1], [1, 0])).toBe(-1);
    expect(orientation([0, 0], [1, 1], [3, 3])).toBe(0);
  });

  it("is exact where the floating-point determinant rounds to the wrong sign (Kettner et al.'s example)", () => {
    const u = 2 ** -53;
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 12; j++) {
        // The line y = x: [0.5 + i·u, 0.5 + j·u] is on its left exactly when j > i.
        expect(orientation([12, 12], [24, 24], [0.5 + i * u, 0.5 + j * u])).toBe(Math.sign(j - i) || 0);
      }
    }
  });

  it("is exact for subnormal and negative coordinates", () => {
    const tiny = Number.MIN_VALUE;
    expect(orientation([0, 0], [tiny, 0], [0, tiny])).toBe(1);
    expect(orientation([-180, -90], [180, 90], [0, 0])).toBe(0);
    expect(orientation([-180, -90], [180, 90], [0, tiny])).toBe(1);
  });
});
