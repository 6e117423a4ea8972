import type { Lot } from "@lotline/contract";
import { reverseLocate } from "../locate/reverse-locate.js";
import { buildingsOfParcel } from "../queries/buildings-of-parcel.js";
import type { GeoSource } from "../store/spatial-filter.js";
import type { LonLat } from "../types.js";
import { buildingViews } from "./building-views.js";
import { parcelView } from "./parcel-view.js";

/**
 * What is at a point, for a page choosing a property: the nearest address (see `reverseLocate`: of the parcel's
 * addresses, else one within 50 m; null when none), the parcel holding the point, and that parcel's buildings
 * numbered by area with the largest suggested as the primary dwelling. Off every parcel there are no buildings.
 */
export async function lotAt(source: GeoSource, point: LonLat): Promise<Lot> {
  const { parcel, address } = await reverseLocate(source, point);
  return {
    location: { lat: point[1], lon: point[0] },
    address: address?.address ?? null,
    parcel: parcel ? await parcelView(source, parcel) : null,
    buildings: parcel ? buildingViews(await buildingsOfParcel(source, parcel.parcelId)) : [],
  };
}
