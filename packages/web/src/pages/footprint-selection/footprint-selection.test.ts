import { describe, expect, it } from "vitest";
import { footprintSelection } from "./footprint-selection";

describe("footprintSelection", () => {
  it("toggles a building in and out with its suggested role, as a click on the map does", () => {
    const selected = footprintSelection(new Map(), { type: "toggle", buildingId: 7, suggestedRole: "other_structure" });
    expect([...selected]).toEqual([[7, "other_structure"]]);
    expect(footprintSelection(selected, { type: "toggle", buildingId: 7, suggestedRole: "other_structure" }).size).toBe(
      0,
    );
  });

  it("keeps a role the user chose when the checkbox is ticked again", () => {
    let selection = footprintSelection(new Map(), {
      type: "set",
      buildingId: 7,
      selected: true,
      suggestedRole: "other_structure",
    });
    selection = footprintSelection(selection, { type: "role", buildingId: 7, role: null });
    selection = footprintSelection(selection, {
      type: "set",
      buildingId: 7,
      selected: true,
      suggestedRole: "other_structure",
    });
    expect(selection.get(7)).toBeNull();
  });

  it("gives no role to a building that is not selected", () => {
    const selection = footprintSelection(new Map(), { type: "role", buildingId: 7, role: "primary_dwelling" });
    expect(selection.has(7)).toBe(false);
  });
});
