import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLotGrid, LOT_GRID, lotId } from "../../test/lot-grid.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { square } from "../geometry/test-shapes.js";
import type { Area } from "../types.js";
import { ParcelAssigner } from "./assign-buildings.js";

/**
 * A building import's thread is handed the next batches while it works on one, and asks one assigner for the
 * parcels of each: calls that overlap must give the answers of calls made one after another, even as boundaries
 * are forgotten to stay within the bound.
 */

let test: TestDatabase;
/** Each lot's parcel id by its source id. */
let parcelIds: Map<string, number>;
const { west: WEST, south: SOUTH, lot: LOT, columns: COLUMNS, rows: ROWS } = LOT_GRID;

beforeAll(async () => {
  test = await createTestDatabase();
  parcelIds = await importLotGrid(test.database);
});
afterAll(async () => {
  await test?.destroy();
});

/** A small footprint well inside each lot of the given columns, row by row, with the lot that owns it. */
function footprintsIn(columns: number[]): Array<{ footprint: Area; lot: number }> {
  const found = [];
  for (const i of columns) {
    for (let j = 0; j < ROWS; j++) {
      const footprint = square(WEST + i * LOT + 0.0003, SOUTH + j * LOT + 0.0003, 0.0004);
      found.push({ footprint, lot: parcelIds.get(lotId(i, j)) as number });
    }
  }
  return found;
}

describe("finding buildings' parcels", () => {
  it("gives calls made together the answers of calls made one after another", async () => {
    // Six batches of 600 footprints (two of the assigner's chunks each) in a shuffled order over all the lots, so
    // that each chunk finds some of its lots kept and reads the others; the assigner keeps 100 boundaries at most.
    const all = footprintsIn(Array.from({ length: COLUMNS }, (_, i) => i));
    const batches = Array.from({ length: 6 }, (_, n) => shuffled(all, n + 1).slice(0, 600));
    const assigner = new ParcelAssigner({ db: test.database.db, dialect: test.database.dialect }, 100);
    const answers = await Promise.all(batches.map((batch) => assigner.owningParcels(batch.map((b) => b.footprint))));
    for (const [n, batch] of batches.entries()) {
      expect(answers[n]?.map((owner) => owner?.parcelId)).toEqual(batch.map(({ lot }) => lot));
      expect(answers[n]?.every((owner) => owner?.share === 1)).toBe(true);
    }
  });
});

/** `items` in an order of their own for each `seed`, the same every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const order = [...items];
  let state = seed;
  for (let i = order.length - 1; i > 0; i--) {
    state = (state * 16807) % 2147483647;
    const j = state % (i + 1);
    [order[i], order[j]] = [order[j] as T, order[i] as T];
  }
  return order;
}
