import { describe, expect, it } from "vitest";
import type { ImportContext } from "./run-import.js";
import { hilbertIndex, SpaceOrderedWrites } from "./space-ordered-writes.js";

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

describe("SpaceOrderedWrites", () => {
  const context = {} as ImportContext;
  /** Rows 0–n a few metres apart along a parallel, shuffled by a fixed stride, each id its place along it. */
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => (i * 37) % n).map((at) => ({ id: String(at), lon: -71 + at * 1e-4, lat: 42 }));

  it("writes every row once, each full window in space order, a part with each batch, while the next one fills", async () => {
    const writes: string[][] = [];
    const written = new SpaceOrderedWrites<{ id: string; lon: number; lat: number }>(
      async (_, part) => {
        writes.push(part.map((row) => row.id));
      },
      { rows: 40, bytes: Number.POSITIVE_INFINITY, writtenPerBatch: 15 },
    );
    const all = rows(100);
    for (let start = 0; start < all.length; start += 10) {
      for (const row of all.slice(start, start + 10))
        written.hold(row, row.id, [row.lon, row.lat, row.lon, row.lat], 1);
      await written.writeSome(context);
    }
    // The first window is full after four batches, and written 15 rows a batch from then on.
    expect(writes.slice(0, 3).map((part) => part.length)).toEqual([15, 15, 10]);
    await written.writeAll(context);
    const ids = writes.flat();
    expect([...ids].sort()).toEqual(all.map((row) => row.id).sort());
    const keyOf = (id: string) => hilbertIndex(-71 + Number(id) * 1e-4, 42);
    const firstWindow = writes.slice(0, 3).flat().map(keyOf);
    expect(firstWindow).toEqual([...firstWindow].sort((a, b) => a - b));
    expect(new Set(firstWindow).size).toBeGreaterThan(30);
  });

  it("writes at once only the held rows a batch reads back, sorted or filling, and each row once", async () => {
    const writes: string[][] = [];
    const written = new SpaceOrderedWrites<{ id: string }>(
      async (_, part) => {
        writes.push(part.map((row) => row.id));
      },
      { rows: 4, bytes: Number.POSITIVE_INFINITY, writtenPerBatch: 2 },
    );
    const hold = (id: string, lon: number) => written.hold({ id }, id, [lon, 0, lon, 0], 1);
    for (const [i, id] of ["a", "b", "c", "d"].entries()) hold(id, i);
    await written.writeSome(context); // sorted, a and b written
    hold("e", 9);
    hold("f", 8);
    await written.writeHeld(context, ["x", "a", "y"]);
    expect(writes).toEqual([["a", "b"]]);
    await written.writeHeld(context, ["e", "y", "d"]);
    expect(writes).toEqual([
      ["a", "b"],
      ["d", "e"],
    ]);
    await written.writeSome(context);
    expect(writes.at(-1)).toEqual(["c"]);
    await written.writeAll(context);
    expect(writes).toEqual([["a", "b"], ["d", "e"], ["c"], ["f"]]);
  });
});
