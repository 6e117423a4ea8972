import { describe, expect, it } from "vitest";
import { normalizeAddress } from "./normalize-address.js";
import { RecentReadings } from "./recent-readings.js";

describe("RecentReadings", () => {
  it("reads a text once while it is kept, and again once the readings kept reach their most", () => {
    const readings = new RecentReadings<{ text: string }>(3);
    const read: string[] = [];
    const get = (text: string) =>
      readings.get(text, () => {
        read.push(text);
        return { text };
      });
    expect(get("A")).toBe(get("A"));
    get("B");
    get("C");
    expect(read).toEqual(["A", "B", "C"]);
    get("D");
    get("A");
    expect(read).toEqual(["A", "B", "C", "D", "A"]);
    expect(Object.isFrozen(get("A"))).toBe(true);
  });

  it("leaves every address its own place when many lines share one", () => {
    const lines = ["12 Oak Ave, Elmwood, KS 67001", "14 Oak Ave, Elmwood, KS 67001", "9 Elm St, Ashby, MA"];
    const first = lines.map((line) => normalizeAddress(line));
    const again = lines.map((line) => normalizeAddress(line));
    expect(again).toEqual(first);
    expect(first.map((address) => [address?.city, address?.state, address?.postcode])).toEqual([
      ["ELMWOOD", "KS", "67001"],
      ["ELMWOOD", "KS", "67001"],
      ["ASHBY", "MA", undefined],
    ]);
    // Each address is an object of its own: changing one leaves the next reading of its place as it was.
    if (first[0]) first[0].city = "CHANGED";
    expect(normalizeAddress(lines[1] as string)?.city).toBe("ELMWOOD");
  });
});
