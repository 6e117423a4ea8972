import type { BuildingView } from "@lotline/contract";
import { round } from "../../products/round.js";
import { toSquareFeet } from "../geometry/index.js";
import type { Building } from "../store/geo-rows.js";
import { latLonInside } from "./lat-lon-inside.js";

/**
 * A parcel's buildings as a page lists them: numbered from 1 by area, largest first (ties by id, as
 * `buildingsOfParcel` orders them), the largest suggested as the primary dwelling and the rest as other structures.
 * Areas are rounded as the products round them.
 */
export function buildingViews(buildings: readonly Building[]): BuildingView[] {
  return [...buildings]
    .sort((a, b) => b.areaM2 - a.areaM2 || a.buildingId - b.buildingId)
    .map((building, index) => ({
      building_id: building.buildingId,
      number: index + 1,
      footprint: building.footprint,
      area_m2: round(building.areaM2),
      area_ft2: round(toSquareFeet(building.areaM2)),
      centroid: latLonInside(building.footprint),
      role: index === 0 ? "primary_dwelling" : "other_structure",
    }));
}
