import { containsPoint } from "../geometry/index.js";
import { type Parcel, toParcel } from "../store/geo-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { LonLat } from "../types.js";

/**
 * The parcel containing `point` (its boundary counts as inside). Where parcels of several datasets overlap, the
 * smallest wins: it is the most specific answer.
 */
export async function parcelAt({ db, dialect }: GeoSource, [lon, lat]: LonLat): Promise<Parcel | undefined> {
  const rows = await db
    .selectFrom("parcels")
    .selectAll()
    .where(bboxMeets(dialect, "parcels", [lon, lat, lon, lat]))
    .execute();
  return rows
    .map(toParcel)
    .filter((parcel) => containsPoint(parcel.boundary, [lon, lat]))
    .sort((a, b) => a.areaM2 - b.areaM2 || a.parcelId - b.parcelId)[0];
}
