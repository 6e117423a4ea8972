import type { BuildingView } from "@lotline/contract";
import { formatArea } from "../../format/format-area";
import { ROLE_LABELS } from "../../format/role-label";

/**
 * How a building is named in the list: its number on the lot, its footprint area and its suggested role.
 *
 * @example buildingLabel({ number: 1, area_m2: 182, area_ft2: 1959, role: "primary_dwelling", … })
 * // "Building 1 — 182 m² (1,959 ft²) — primary dwelling"
 */
export function buildingLabel(building: Pick<BuildingView, "number" | "area_m2" | "area_ft2" | "role">): string {
  return `Building ${building.number} — ${formatArea(building.area_m2, building.area_ft2)} — ${ROLE_LABELS[building.role]}`;
}
