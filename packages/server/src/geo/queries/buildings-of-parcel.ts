import type { Building } from "../store/geo-rows.js";
import { readBuildings } from "../store/read-spatial-rows.js";
import type { GeoSource } from "../store/spatial-filter.js";

/** The buildings assigned to a parcel (those it holds the largest share of), largest first. */
export function buildingsOfParcel(source: GeoSource, parcelId: number): Promise<Building[]> {
  return readBuildings(
    source,
    (query) => query.where("parcel_id", "=", parcelId).orderBy("area_m2", "desc").orderBy("building_id"),
    { shapesAlong: true },
  );
}
