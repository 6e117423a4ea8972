import { describe, expect, it } from "vitest";
import { normalizeAddress } from "../address/index.js";
import type { NormalizedAddress } from "../address/normalized-address.js";
import { WrittenRows } from "./written-rows.js";

function address(line: string): NormalizedAddress {
  const normalized = normalizeAddress(line);
  if (!normalized) throw new Error(`${line} does not read as an address`);
  return normalized;
}

describe("WrittenRows", () => {
  it("numbers the rows from the first id and finds each at its place, through tables that grow", () => {
    const rows = new WrittenRows(1001);
    const towns = ["Elmwood", "Oakdale", "Ashby"];
    const written = 100_000;
    const line = (n: number) => `${n} Main St, ${towns[n % towns.length]}, KS`;
    const misnumbered = [];
    for (let n = 1; n <= written; n++) if (rows.add(address(line(n))) !== 1000 + n) misnumbered.push(n);
    expect(misnumbered).toEqual([]);
    expect(rows.count).toBe(written);
    // A row whose key hashed the same may come with it, rarely: the caller compares the rows it reads.
    let others = 0;
    const missing = [];
    for (let n = 1; n <= written; n += 7) {
      const ids = rows.idsAt(address(line(n)));
      if (!ids.includes(1000 + n)) missing.push(n);
      others += ids.length - 1;
    }
    expect(missing).toEqual([]);
    expect(others).toBeLessThan(5);
    // The same street and number in another town was never written.
    let found = 0;
    for (let n = 1; n <= 20_000; n++) {
      const elsewhere = address(`${n} Main St, ${towns[(n + 1) % towns.length]}, KS`);
      if (rows.mayHold(elsewhere) || rows.idsAt(elsewhere).length > 0) found += 1;
    }
    expect(found).toBeLessThan(5);
  });

  it("finds an address's rows in its own town and without one, and answers for one naming none until a row names one", () => {
    const rows = new WrittenRows(1);
    const bare = rows.add(address("12 Oak Ave"));
    const elmwood = rows.add(address("12 Oak Ave, Elmwood, KS"));
    const unit = rows.add(address("12 Oak Ave Apt 3, Elmwood, KS"));
    rows.add(address("12 Oak Ave, Oakdale, KS"));
    rows.add(address("14 Oak Ave, Elmwood, KS"));
    expect(rows.idsAt(address("12 Oak Avenue, Elmwood, KS")).sort()).toEqual([bare, elmwood]);
    // A unit is another address: its row is found by its own unit only.
    expect(rows.idsAt(address("12 Oak Avenue, Apartment 3, Elmwood, KS"))).toEqual([unit]);
    expect(rows.mayHold(address("12 Oak Ave Apt 4, Elmwood, KS"))).toBe(false);
    expect(rows.mayHold(address("12-14 Oak Ave, Elmwood, KS"))).toBe(false);
    expect(rows.mayHold(address("12 Oak Ave, Ashby, KS"))).toBe(true);
    expect(rows.idsAt(address("12 Oak Ave, Ashby, KS"))).toEqual([bare]);
    expect(rows.mayHold(address("16 Oak Ave, Elmwood, KS"))).toBe(false);
    // Rows are kept by town: one naming none may be any town's, which only the street index can say.
    expect(rows.answers(address("12 Oak Ave, Elmwood, KS"))).toBe(true);
    expect(rows.answers(address("12 Oak Ave"))).toBe(false);
    const townless = new WrittenRows(1);
    townless.add(address("40 Elm St"));
    expect(townless.answers(address("40 Elm St"))).toBe(true);
    expect(townless.idsAt(address("40 Elm Street"))).toEqual([1]);
  });

  it("finds a row naming no town for an address naming one, though rows naming theirs came first", () => {
    const rows = new WrittenRows(1);
    for (let n = 1; n <= 1000; n++) rows.add(address(`${n} Birch Rd, Elmwood, KS`));
    expect(rows.mayHold(address("2000 Birch Rd, Elmwood, KS"))).toBe(false);
    const townless = rows.add(address("2000 Birch Rd"));
    expect(rows.mayHold(address("2000 Birch Rd, Elmwood, KS"))).toBe(true);
    expect(rows.idsAt(address("2000 Birch Road, Elmwood, KS"))).toEqual([townless]);
  });
});
