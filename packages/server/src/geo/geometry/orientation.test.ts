import { describe, expect, it } from "vitest";
import { orientation } from "./orientation.js";
import type { Pair } from "./read-polygons.js";

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

  it("agrees with exact arithmetic where positions share a coordinate or a position", () => {
    // Multiples of 2^-40 within ±1 are exact in binary: scaled, they are whole numbers.
    const whole = ([lon, lat]: Pair) => [BigInt(lon * 2 ** 40), BigInt(lat * 2 ** 40)] as const;
    const exact = (a: Pair, b: Pair, c: Pair) => {
      const [[ax, ay], [bx, by], [cx, cy]] = [whole(a), whole(b), whole(c)];
      const determinant = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx);
      return determinant > 0n ? 1 : determinant < 0n ? -1 : 0;
    };
    const coordinates = [0, 2 ** -40, -(2 ** -40), 0.5, 0.5 + 2 ** -40, -0.75];
    for (const draw of combinations(coordinates, 6, 4000)) {
      const at = (i: number) => draw[i] ?? 0;
      const [a, b, c]: [Pair, Pair, Pair] = [
        [at(0), at(1)],
        [at(2), at(3)],
        [at(4), at(5)],
      ];
      expect(orientation(a, b, c)).toBe(exact(a, b, c));
    }
  });
});

/** `count` draws of `length` values from `values`, spread evenly over every combination. */
function combinations(values: number[], length: number, count: number): number[][] {
  const total = values.length ** length;
  return Array.from({ length: count }, (_, k) => {
    let index = Math.floor((k * total) / count);
    return Array.from({ length }, () => {
      const value = values[index % values.length] ?? 0;
      index = Math.floor(index / values.length);
      return value;
    });
  });
}
