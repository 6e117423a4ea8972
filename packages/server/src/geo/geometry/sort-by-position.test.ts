import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortByPosition } from "./sort-by-position.js";

describe("sortByPosition", () => {
  it("orders indexes by longitude, then latitude, equal positions in index order, as a stable sort does", () => {
    // Few distinct values, so that ties of longitude and whole repeats are common, and lengths across the runs.
    const coordinate = fc.integer({ min: -3, max: 3 }).map((value) => value / 2);
    fc.assert(
      fc.property(fc.array(fc.tuple(coordinate, coordinate), { maxLength: 200 }), (positions) => {
        const x = Float64Array.from(positions, ([lon]) => lon);
        const y = Float64Array.from(positions, ([, lat]) => lat);
        const expected = positions
          .map((_, index) => index)
          .sort((i, j) => (x[i] as number) - (x[j] as number) || (y[i] as number) - (y[j] as number) || i - j);
        expect([...sortByPosition(x, y)]).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("sorts a ring of 100,000 positions", () => {
    const count = 100_000;
    const x = Float64Array.from({ length: count }, (_, i) => Math.cos((2 * Math.PI * i) / count));
    const y = Float64Array.from({ length: count }, (_, i) => Math.sin((2 * Math.PI * i) / count));
    const order = sortByPosition(x, y);
    expect(new Set(order).size).toBe(count);
    for (let k = 1; k < count; k++) {
      expect(x[order[k - 1] as number] as number).toBeLessThanOrEqual(x[order[k] as number] as number);
    }
  });
});
