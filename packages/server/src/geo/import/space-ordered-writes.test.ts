import { describe, expect, it } from "vitest";
import { hilbertIndex } from "./space-ordered-writes.js";

/** The middle of cell (x, y) of a 2^bits grid over the world, as a longitude and latitude. */
function cellMiddle(x: number, y: number, bits: number): [number, number] {
  const side = 2 ** bits;
  return [((x + 0.5) / side) * 360 - 180, ((y + 0.5) / side) * 180 - 90];
}

describe("hilbertIndex", () => {
  it("walks every cell of a grid once, each step to a cell beside the last", () => {
    const bits = 5;
    const side = 2 ** bits;
    const cellAt = new Map<number, [number, number]>();
    for (let x = 0; x < side; x++) {
      for (let y = 0; y < side; y++) cellAt.set(hilbertIndex(...cellMiddle(x, y, bits), bits), [x, y]);
    }
    expect([...cellAt.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: side * side }, (_, i) => i));
    for (let i = 1; i < side * side; i++) {
      const [x0, y0] = cellAt.get(i - 1) as [number, number];
      const [x1, y1] = cellAt.get(i) as [number, number];
      expect(Math.abs(x1 - x0) + Math.abs(y1 - y0), `step ${i}`).toBe(1);
    }
  });

  it("keeps the default grid's indexes exact and in range, the world's edges included", () => {
    const last = 2 ** 48 - 1;
    for (const [lon, lat] of [
      [-180, -90],
      [180, 90],
      [-71.1, 42.37],
      [179.9999999, -89.9999999],
    ] as const) {
      const index = hilbertIndex(lon, lat);
      expect(Number.isSafeInteger(index)).toBe(true);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThanOrEqual(last);
    }
  });
});
