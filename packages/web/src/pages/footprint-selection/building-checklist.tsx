import type { BuildingRole, BuildingView } from "@lotline/contract";
import { ROLE_LABELS, ROLES } from "../../format/role-label";
import { buildingLabel } from "./building-label";
import type { FootprintSelection, SelectionAction } from "./footprint-selection";

export interface BuildingChecklistProps {
  buildings: readonly BuildingView[];
  selection: FootprintSelection;
  onChange: (action: SelectionAction) => void;
  disabled: boolean;
}

/**
 * The lot's buildings as checkboxes (the keyboard's way to select, in step with clicks on the map), and for each
 * selected one a choice of its role.
 */
export function BuildingChecklist({ buildings, selection, onChange, disabled }: BuildingChecklistProps) {
  return (
    <fieldset class="checklist">
      <legend class="checklist__legend">Insured buildings</legend>
      <ul class="checklist__items">
        {buildings.map((building) => {
          const id = `building-${building.building_id}`;
          const selected = selection.has(building.building_id);
          const role = selection.get(building.building_id) ?? null;
          return (
            <li
              key={building.building_id}
              class={selected ? "checklist__item checklist__item--selected" : "checklist__item"}
            >
              <div class="field field--checkbox">
                <input
                  id={id}
                  type="checkbox"
                  checked={selected}
                  disabled={disabled}
                  onChange={(event) =>
                    onChange({
                      type: "set",
                      buildingId: building.building_id,
                      selected: event.currentTarget.checked,
                      suggestedRole: building.role,
                    })
                  }
                />
                <label for={id}>{buildingLabel(building)}</label>
              </div>
              {selected && (
                <div class="checklist__role">
                  <label for={`${id}-role`}>Role of building {building.number}</label>
                  <select
                    id={`${id}-role`}
                    class="field__control"
                    value={role ?? ""}
                    disabled={disabled}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      onChange({ type: "role", buildingId: building.building_id, role: toRole(value) });
                    }}
                  >
                    {ROLES.map((option) => (
                      <option key={option} value={option}>
                        {capitalize(ROLE_LABELS[option])}
                      </option>
                    ))}
                    <option value="">Not stated</option>
                  </select>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

function toRole(value: string): BuildingRole | null {
  return (ROLES as readonly string[]).includes(value) ? (value as BuildingRole) : null;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
