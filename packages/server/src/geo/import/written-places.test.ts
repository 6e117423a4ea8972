import { describe, expect, it } from "vitest";
import { normalizeAddress } from "../address/index.js";
import type { NormalizedAddress } from "../address/normalized-address.js";
import { WrittenPlaces } from "./written-places.js";

function address(line: string): NormalizedAddress {
  const normalized = normalizeAddress(line);
  if (!normalized) throw new Error(`${line} does not read as an address`);
  return normalized;
}

describe("WrittenPlaces", () => {
  it("holds every place written, through filters that fill and grow, and few of those never written", () => {
    const places = new WrittenPlaces();
    const written = 300_000;
    for (let n = 1; n <= written; n++) places.add(address(`${n} Main St, Springfield, IL`));
    for (let n = 1; n <= written; n += 997) expect(places.mayHold(address(`${n} Main St, Springfield, IL`))).toBe(true);
    let mistaken = 0;
    const never = 20_000;
    for (let n = 1; n <= never; n++) if (places.mayHold(address(`${n} Main St, Shelbyville, IL`))) mistaken += 1;
    // Each filter is asked, twice for an address naming its town (there, and without a town): a few %.
    expect(mistaken / never).toBeLessThan(0.03);
  });

  it("finds a written place in its own town or without one, and in any town for an address naming none", () => {
    const places = new WrittenPlaces();
    places.add(address("12 Oak Ave, Elmwood, KS"));
    places.add(address("40 Elm St"));
    expect(places.mayHold(address("12 Oak Ave, Elmwood, KS"))).toBe(true);
    expect(places.mayHold(address("12 Oak Avenue"))).toBe(true);
    expect(places.mayHold(address("12 Oak Ave, Oakdale, KS"))).toBe(false);
    expect(places.mayHold(address("40 Elm St, Oakdale, KS"))).toBe(true);
    expect(places.mayHold(address("14 Oak Ave, Elmwood, KS"))).toBe(false);
  });

  it("tells the units of one house number apart: each is an address of its own", () => {
    const places = new WrittenPlaces();
    for (let unit = 1; unit <= 100; unit++) places.add(address(`99 Spring St Apt ${unit}, Elmwood, KS`));
    expect(places.mayHold(address("99 Spring Street, Apartment 7, Elmwood, KS"))).toBe(true);
    let mistaken = 0;
    for (let unit = 101; unit <= 1100; unit++) {
      if (places.mayHold(address(`99 Spring St Apt ${unit}, Elmwood, KS`))) mistaken += 1;
    }
    expect(mistaken).toBeLessThan(30);
    expect(places.mayHold(address("99 Spring St, Elmwood, KS"))).toBe(false);
  });
});
