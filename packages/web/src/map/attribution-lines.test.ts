import { describe, expect, it } from "vitest";
import { attributionLines } from "./attribution-lines";

describe("attributionLines", () => {
  it("names the parcels' dataset, provider and licence first, then each other dataset once", () => {
    const parcel = { dataset: "Assessor parcels", provider: "City of Cambridge", license: "PDDL 1.0" };
    const lines = attributionLines({
      parcel,
      context: [parcel, { dataset: "Buildings", provider: null, license: "CC BY 4.0" }, parcel],
    });
    expect(lines).toEqual(["Parcels: Assessor parcels — City of Cambridge (PDDL 1.0)", "Buildings (CC BY 4.0)"]);
  });

  it("escapes markup, since MapLibre shows attributions as HTML", () => {
    const [line] = attributionLines({
      parcel: { dataset: "<img src=x onerror=alert(1)>", provider: null, license: null },
    });
    expect(line).toBe("Parcels: &#60;img src=x onerror=alert(1)&#62;");
  });
});
