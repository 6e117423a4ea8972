import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLotGrid, LOT_GRID, lotId } from "../../test/lot-grid.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { AddressLocator } from "./address-locator.js";
import type { ReadRecord } from "./run-import.js";

/**
 * An address import's thread is handed the next batches while it works on one, and asks one locator for each:
 * batches located together must give the answers of batches located one after another, even as the parcels kept
 * are let go to stay within the bound.
 */

let test: TestDatabase;
/** Each lot's parcel id by its source id. */
let parcelIds: Map<string, number>;

beforeAll(async () => {
  test = await createTestDatabase();
  parcelIds = await importLotGrid(test.database);
});
afterAll(async () => {
  await test?.destroy();
});

/** The source id of the grid's `n`th lot, counted column by column. */
const nthLot = (n: number) => lotId(Math.floor(n / LOT_GRID.rows), n % LOT_GRID.rows);

/** A batch of addresses, one joined to each of `lots`. */
function batch(lots: number[]): ReadRecord[] {
  return lots.map((lot, i) => {
    const properties = { ADDRESS: `${i + 1} MAIN ST`, ML: nthLot(lot) };
    return { number: i + 1, feature: { type: "Feature", properties, geometry: null } };
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** The parcel each record was located in, or why it was not. */
async function located(answer: ReturnType<AddressLocator["locateBatch"]>): Promise<Array<number | string | null>> {
  return (await answer).map((address) => ("parcelId" in address ? address.parcelId : address.reason));
}

const parcelsOf = (records: ReadRecord[]) => records.map((r) => parcelIds.get(String(r.feature.properties.ML)));

describe("locating addresses through their parcels", () => {
  it("gives batches located together the answers of batches located one after another", async () => {
    // The locator keeps 300 parcels at most. Lots 0–199 are kept when the second and third batches start
    // together; the third counts on them. The fourth starts once the second is done, 700 parcels kept: it lets
    // them all go.
    const locator = new AddressLocator(
      { addressColumn: "ADDRESS", joinParcel: "ML", city: "Boston", state: "MA" },
      300,
    );
    const source = { db: test.database.db, dialect: test.database.dialect, namespace: "main" as const };
    const batches = [range(0, 200), range(200, 700), [...range(0, 200), ...range(700, 1000)], range(1000, 1200)].map(
      batch,
    );
    const [first, second, third, fourth] = batches as [ReadRecord[], ReadRecord[], ReadRecord[], ReadRecord[]];
    expect(await located(locator.locateBatch(source, first))).toEqual(parcelsOf(first));
    const together = [second, third].map((records) => located(locator.locateBatch(source, records)));
    expect(await together[0]).toEqual(parcelsOf(second));
    const last = located(locator.locateBatch(source, fourth));
    expect(await together[1]).toEqual(parcelsOf(third));
    expect(await last).toEqual(parcelsOf(fourth));
  });
});
