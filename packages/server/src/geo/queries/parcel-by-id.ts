import type { Parcel } from "../store/geo-rows.js";
import { readParcels } from "../store/read-spatial-rows.js";
import type { GeoSource } from "../store/spatial-filter.js";

/** The parcel with this id, if there is one. */
export async function parcelById(source: GeoSource, parcelId: number): Promise<Parcel | undefined> {
  const [parcel] = await readParcels(source, (query) => query.where("parcel_id", "=", parcelId));
  return parcel;
}
