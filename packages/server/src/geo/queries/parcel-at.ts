import { containsPoint } from "../geometry/index.js";
import type { Parcel } from "../store/geo-rows.js";
import { readParcels } from "../store/read-spatial-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { LonLat } from "../types.js";

/**
 * The parcel containing `point` (its boundary counts as inside). Where parcels of several datasets overlap, the
 * smallest wins: it is the most specific answer.
 */
export async function parcelAt(source: GeoSource, [lon, lat]: LonLat): Promise<Parcel | undefined> {
  const parcels = await readParcels(
    source,
    (query) => query.where(bboxMeets(source.dialect, "parcels", [lon, lat, lon, lat])),
    { shapesAlong: true },
  );
  return parcels
    .filter((parcel) => containsPoint(parcel.boundary, [lon, lat]))
    .sort((a, b) => a.areaM2 - b.areaM2 || a.parcelId - b.parcelId)[0];
}
