import { describe, expect, it } from "vitest";
import { addressKey, normalizeAddress, streetKey } from "./index.js";

function normalized(text: string) {
  const address = normalizeAddress(text, { city: "Cambridge", state: "MA" });
  if (!address) throw new Error(`no street in ${text}`);
  return address;
}

describe("streetKey", () => {
  it.each([
    ["120 Gore Street", "GORE ST"],
    ["1 North Main St Apt 4", "N MAIN ST"],
    ["158 Elm St North", "ELM ST N"],
    ["1 Broadway", "BROADWAY"],
    ["100 North St", "NORTH ST"],
    ["219 Monsignor O'Brien Hwy", "MONSIGNOR OBRIEN HWY"],
  ])("%s → %s", (text, key) => {
    expect(streetKey(normalized(text))).toBe(key);
  });
});

describe("addressKey", () => {
  it("joins street, number, unit, city and state", () => {
    expect(addressKey(normalized("5 Main St #3"))).toBe("MAIN ST|5|3|CAMBRIDGE|MA");
    expect(addressKey(normalized("30-32 Sciarappa St"))).toBe("SCIARAPPA ST|30-32||CAMBRIDGE|MA");
    expect(addressKey(normalized("5 Main St Rear"))).toBe("MAIN ST|5|REAR|CAMBRIDGE|MA");
  });

  it("is one for the spellings of one address", () => {
    const spellings = [
      "5 Main St #3",
      "5 MAIN STREET UNIT 3",
      "5 main st., apt 3",
      "5 Main Str Apartment 3, Cambridge, Massachusetts 02139",
      "  5   Main   St   # 3  ",
    ];
    expect(new Set(spellings.map((text) => addressKey(normalized(text)))).size).toBe(1);
  });

  it("leaves out the ZIP code", () => {
    expect(addressKey(normalized("5 Main St, Cambridge, MA 02139"))).toBe(addressKey(normalized("5 Main St, 02142")));
  });

  it("tells apart number, unit, street, city and state", () => {
    const keys = [
      "5 Main St",
      "7 Main St",
      "5 Main St #3",
      "5 Main St #4",
      "5 Main Ave",
      "5 N Main St",
      "5 Main St, Boston",
      "5 Main St, Cambridge, NY",
    ].map((text) => addressKey(normalized(text)));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
