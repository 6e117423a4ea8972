import { describe, expect, it } from "vitest";
import { Random } from "./prng.js";
import { ordinal, planStreets } from "./street-plan.js";

describe("planStreets", () => {
  it("numbers streets the way signs do", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual([
      "1ST",
      "2ND",
      "3RD",
      "4TH",
      "11TH",
      "12TH",
      "13TH",
      "21ST",
      "22ND",
      "101ST",
    ]);
  });

  it("lays out blocks + 1 streets each way, Main Street in the middle, and a diagonal crossing the grid", () => {
    const plan = planStreets(6, new Random(3, "streets"));
    expect(plan.northSouth).toHaveLength(7);
    expect(plan.eastWest).toHaveLength(7);
    expect(plan.main).toBe(plan.northSouth[3]);
    expect(plan.main.full).toBe("N MAIN ST");
    expect(new Set(plan.streets.map((s) => s.full)).size).toBe(plan.streets.length);
    // Each grid street meets every street of the other family; the diagonal meets several.
    for (const street of [...plan.northSouth, ...plan.eastWest]) expect(street.hundreds).toHaveLength(7);
    expect(plan.diagonal.crossings.length).toBeGreaterThanOrEqual(4);
    expect(plan.diagonal.end).toBeGreaterThan(plan.diagonal.start);
  });
});
