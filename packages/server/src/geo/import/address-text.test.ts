import { describe, expect, it } from "vitest";
import { addressColumnsOf, addressReader } from "./address-text.js";

describe("an address import's one-line address of a row", () => {
  it("is the street address column as it is, when one column holds it", () => {
    const read = addressReader({ addressColumn: "Location" });
    expect(read({ Location: " 120 GORE ST " })).toBe(" 120 GORE ST ");
    expect([read({ Location: "  " }), read({ Location: 120 }), read({})]).toEqual([undefined, undefined, undefined]);
    expect(addressColumnsOf({ addressColumn: "Location" })).toEqual(["Location"]);
  });

  it("is put together from its parts as a person writes it, empty parts left out", () => {
    const options = {
      addressColumn: "NUMBER, STREET,UNIT",
      cityColumn: "CITY",
      stateColumn: "REGION",
      postcodeColumn: "POSTCODE",
    };
    const read = addressReader(options);
    expect(addressColumnsOf(options)).toEqual(["NUMBER", "STREET", "UNIT", "CITY", "REGION", "POSTCODE"]);
    const row = {
      NUMBER: 123,
      STREET: " Main Street ",
      UNIT: "4B",
      CITY: "Springfield",
      REGION: "IL",
      POSTCODE: "62701",
    };
    expect(read(row)).toBe("123 Main Street 4B, Springfield, IL 62701");
    expect(read({ ...row, UNIT: "", CITY: null, POSTCODE: undefined })).toBe("123 Main Street, IL");
    expect(read({ ...row, REGION: "", POSTCODE: "" })).toBe("123 Main Street 4B, Springfield");
    expect(read({ NUMBER: "", STREET: " ", CITY: "Springfield" })).toBeUndefined();
  });
});
