import { type Building, toBuilding } from "../store/geo-rows.js";
import type { GeoSource } from "../store/spatial-filter.js";

/** The buildings assigned to a parcel (those it holds the largest share of), largest first. */
export async function buildingsOfParcel({ db }: GeoSource, parcelId: number): Promise<Building[]> {
  const rows = await db
    .selectFrom("buildings")
    .selectAll()
    .where("parcel_id", "=", parcelId)
    .orderBy("area_m2", "desc")
    .orderBy("building_id")
    .execute();
  return rows.map(toBuilding);
}
