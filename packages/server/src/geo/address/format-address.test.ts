import { describe, expect, it } from "vitest";
import { formatAddress, type NormalizedAddress, normalizeAddress } from "./index.js";

describe("formatAddress", () => {
  const full: NormalizedAddress = {
    number: "120",
    numberLow: 120,
    numberHigh: 120,
    street: "GORE",
    suffix: "ST",
    city: "CAMBRIDGE",
    state: "MA",
    postcode: "02141",
  };

  it.each<[NormalizedAddress, string]>([
    [full, "120 GORE ST, CAMBRIDGE, MA 02141"],
    [{ number: "30-32", street: "SCIARAPPA", suffix: "ST", unitType: "UNIT", unit: "2" }, "30-32 SCIARAPPA ST UNIT 2"],
    [
      { number: "1", predir: "N", street: "MAIN", suffix: "ST", postdir: "E", unitType: "APT", unit: "4B" },
      "1 N MAIN ST E APT 4B",
    ],
    [{ number: "5", street: "MAIN", suffix: "ST", unitType: "#", unit: "3" }, "5 MAIN ST # 3"],
    [{ number: "5", street: "MAIN", suffix: "ST", unit: "3" }, "5 MAIN ST # 3"],
    [{ number: "5", street: "MAIN", suffix: "ST", unitType: "REAR" }, "5 MAIN ST REAR"],
    [{ street: "BROADWAY", state: "MA" }, "BROADWAY, MA"],
    [{ street: "MAIN", suffix: "ST", postcode: "02142", plus4: "1234" }, "MAIN ST, 02142-1234"],
    [{ street: "MAIN", suffix: "ST", city: "CAMBRIDGE", postcode: "02142" }, "MAIN ST, CAMBRIDGE, 02142"],
  ])("%j → %s", (address, expected) => {
    expect(formatAddress(address)).toBe(expected);
  });

  it("leaves the place out on request", () => {
    expect(formatAddress(full, { withPlace: false })).toBe("120 GORE ST");
  });

  it("writes what normalizeAddress reads back to the same address", () => {
    const texts = [
      "350 Main Street, Cambridge, Massachusetts 02142-1234",
      "1 N Main St Apt 4B, Springfield, IL",
      "12 1/2 Elm Ave",
      "REAR 65 Mt Auburn St",
      "126 Oxford St PS1",
      "1 Avenue N",
      "100 North St",
      "County Road 12, Ames, IA",
    ];
    for (const text of texts) {
      const address = normalizeAddress(text);
      expect(address).toBeDefined();
      if (address) expect(normalizeAddress(formatAddress(address))).toEqual(address);
    }
  });
});
