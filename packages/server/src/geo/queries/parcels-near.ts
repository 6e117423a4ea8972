import { distanceToGeometry, expandBBox } from "../geometry/index.js";
import type { Parcel } from "../store/geo-rows.js";
import { readParcels } from "../store/read-spatial-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { LonLat } from "../types.js";

/** Parcels within `metres` of `point`, nearest first, each with its distance (0 for the one containing it). */
export async function parcelsNear(
  source: GeoSource,
  point: LonLat,
  metres: number,
  limit = 20,
): Promise<Array<{ parcel: Parcel; distanceM: number }>> {
  const parcels = await readParcels(source, (query) =>
    query.where(bboxMeets(source.dialect, "parcels", expandBBox([point[0], point[1], point[0], point[1]], metres))),
  );
  return parcels
    .map((parcel) => ({ parcel, distanceM: distanceToGeometry(point, parcel.boundary) }))
    .filter((hit) => hit.distanceM <= metres)
    .sort((a, b) => a.distanceM - b.distanceM || a.parcel.parcelId - b.parcel.parcelId)
    .slice(0, limit);
}
