import { largestShare } from "../geo/geometry/index.js";
import { buildingsNear } from "../geo/queries/buildings-near.js";
import { buildingsOfParcel } from "../geo/queries/buildings-of-parcel.js";
import type { Building } from "../geo/store/geo-rows.js";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import type { Lot } from "./lot.js";
import { readOnce } from "./shared-reads.js";

/**
 * The buildings standing on a lot, largest first. On an imported parcel, those assigned to it at import (it holds
 * the largest share of their footprint). On a drawn boundary, every building overlapping it whose largest share
 * lies inside it: at least half the footprint inside, or more of it inside than on the imported parcel it was
 * assigned to — unless that parcel is the very one the user redrew, which the drawing replaces.
 */
export async function lotStructures(source: GeoSource, lot: Lot): Promise<Building[]> {
  const parcel = lot.boundarySource === "imported" ? lot.parcel : undefined;
  // The structures and exposure products both stand on these: one read for the order.
  if (parcel)
    return readOnce(source, `buildings of parcel ${parcel.parcelId}`, () => buildingsOfParcel(source, parcel.parcelId));
  const touching = await buildingsNear(source, lot.boundary, 0);
  return touching
    .map(({ building }) => building)
    .filter((building) => {
      const inside = largestShare(building.footprint, [{ id: 0, area: lot.boundary }])?.share ?? 0;
      if (inside === 0) return false;
      if (inside >= 0.5 || building.parcelId === null) return true;
      if (building.parcelId === lot.parcel?.parcelId) return false;
      return inside >= (building.parcelShare ?? 0);
    })
    .sort((a, b) => b.areaM2 - a.areaM2 || a.buildingId - b.buildingId);
}
