import type { PolicyBuilding } from "@lotline/contract";
import { formatArea } from "../../format/format-area";
import { ROLE_LABELS } from "../../format/role-label";
import { squareFeet } from "../../format/square-feet";
import { Panel } from "../../ui/panel";

/** The buildings the policy insures (chosen on the footprint selection page), highlighted on the map. */
export function PolicyBuildingsPanel({ buildings }: { buildings: readonly PolicyBuilding[] }) {
  return (
    <Panel title="Policy buildings">
      {buildings.length === 0 ? (
        <p class="muted">No buildings have been chosen for the policy.</p>
      ) : (
        <ul class="plain-list">
          {buildings.map((building) => (
            <li key={building.building_id}>
              Building {building.building_id} — {formatArea(building.area_m2, squareFeet(building.area_m2))}
              {building.role ? ` — ${ROLE_LABELS[building.role]}` : ""}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
