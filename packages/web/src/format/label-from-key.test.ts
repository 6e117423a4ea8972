import { describe, expect, it } from "vitest";
import { labelFromKey } from "./label-from-key";

describe("labelFromKey", () => {
  it("turns API keys into labels, units in parentheses", () => {
    expect(labelFromKey("area_m2")).toBe("Area (m²)");
    expect(labelFromKey("total_area_ft2")).toBe("Total area (ft²)");
    expect(labelFromKey("nearest_structure_m")).toBe("Nearest structure (m)");
    expect(labelFromKey("within_10_m")).toBe("Within 10 m");
    expect(labelFromKey("primary_building_id")).toBe("Primary building ID");
    expect(labelFromKey("FLD_ZONE")).toBe("Fld zone");
    expect(labelFromKey("sfhaTf")).toBe("Sfha tf");
  });

  it("does not take a key that is only a unit for a unit", () => {
    expect(labelFromKey("m")).toBe("M");
  });
});
