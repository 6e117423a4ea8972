import type { BuildingRole } from "@lotline/contract";

/** The selected buildings by id, each with the role the user gives it (null: not stated). */
export type FootprintSelection = ReadonlyMap<number, BuildingRole | null>;

export type SelectionAction =
  /** Selects a building (with its suggested role) or deselects it: a click on the map or on its checkbox. */
  | { type: "toggle"; buildingId: number; suggestedRole: BuildingRole }
  | { type: "set"; buildingId: number; selected: boolean; suggestedRole: BuildingRole }
  | { type: "role"; buildingId: number; role: BuildingRole | null }
  | { type: "clear" };

/** The selection after `action`; the map and the checkbox list both read and change this one selection. */
export function footprintSelection(selection: FootprintSelection, action: SelectionAction): FootprintSelection {
  const next = new Map(selection);
  switch (action.type) {
    case "toggle":
      if (next.has(action.buildingId)) next.delete(action.buildingId);
      else next.set(action.buildingId, action.suggestedRole);
      return next;
    case "set":
      if (!action.selected) next.delete(action.buildingId);
      else if (!next.has(action.buildingId)) next.set(action.buildingId, action.suggestedRole);
      return next;
    case "role":
      if (next.has(action.buildingId)) next.set(action.buildingId, action.role);
      return next;
    case "clear":
      return new Map();
  }
}
