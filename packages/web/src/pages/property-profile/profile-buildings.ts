import type { PropertyRecord } from "@lotline/contract";
import type { SubjectBuilding } from "../../map/subject-building";
import { primaryBuildingIdOf } from "./product-data";

/**
 * The buildings the profile draws: the lot's (the primary one marked) and the policy's insured ones highlighted,
 * including an insured one that the lot's last order did not list.
 */
export function profileBuildings(record: PropertyRecord): SubjectBuilding[] {
  const primary = primaryBuildingIdOf(record);
  const insured = new Set(record.policy_buildings.map((building) => building.building_id));
  const lot = record.buildings.map((building) => ({
    building_id: building.building_id,
    footprint: building.footprint,
    primary: building.building_id === primary,
    selected: insured.has(building.building_id),
  }));
  const listed = new Set(lot.map((building) => building.building_id));
  const extra = record.policy_buildings
    .filter((building) => !listed.has(building.building_id))
    .map((building) => ({
      building_id: building.building_id,
      footprint: building.footprint,
      primary: building.building_id === primary,
      selected: true,
    }));
  return [...lot, ...extra];
}
