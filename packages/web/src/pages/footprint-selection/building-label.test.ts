import { describe, expect, it } from "vitest";
import { buildingLabel } from "./building-label";

describe("buildingLabel", () => {
  it("names the building by number, area in m² and ft², and suggested role", () => {
    expect(buildingLabel({ number: 1, area_m2: 182.04, area_ft2: 1959.49, role: "primary_dwelling" })).toBe(
      "Building 1 — 182 m² (1,959 ft²) — primary dwelling",
    );
    expect(buildingLabel({ number: 3, area_m2: 12.6, area_ft2: 135.6, role: "other_structure" })).toBe(
      "Building 3 — 13 m² (136 ft²) — other structure",
    );
  });
});
