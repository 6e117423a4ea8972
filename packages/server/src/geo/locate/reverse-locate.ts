import { expandBBox, geodesicDistance } from "../geometry/index.js";
import { parcelAt } from "../queries/parcel-at.js";
import type { Parcel } from "../store/geo-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { LonLat } from "../types.js";
import { type AddressCandidate, toCandidate } from "./address-candidate.js";

/** How far from a point with no parcel an address may be and still be its address. */
const NO_PARCEL_RADIUS_M = 50;

/**
 * The parcel at a point and its address: of the parcel's addresses the nearest to the point (a corner lot may have
 * two); on land without a parcel, the nearest address within 50 m.
 */
export async function reverseLocate(
  source: GeoSource,
  point: LonLat,
): Promise<{ parcel: Parcel | undefined; address: AddressCandidate | undefined }> {
  const parcel = await parcelAt(source, point);
  const rows = parcel
    ? await source.db.selectFrom("addresses").selectAll().where("parcel_id", "=", parcel.parcelId).execute()
    : await addressesAround(source, point, NO_PARCEL_RADIUS_M);
  const nearest = rows
    .map((row) => ({ row, distance: geodesicDistance(point, [row.lon, row.lat]) }))
    .filter((hit) => parcel !== undefined || hit.distance <= NO_PARCEL_RADIUS_M)
    .sort((a, b) => a.distance - b.distance || a.row.address_id - b.row.address_id)[0];
  return { parcel, address: nearest ? toCandidate(nearest.row, 1) : undefined };
}

/**
 * The addresses in the box `metres` around `point`, and some beyond it. An address with a parcel lies inside it, so
 * it is found through the parcels meeting the box (their spatial index, then the addresses' index by parcel); only
 * the few addresses without a parcel are indexed by their position (migration 0019).
 */
async function addressesAround(source: GeoSource, point: LonLat, metres: number) {
  const box = expandBBox([point[0], point[1], point[0], point[1]], metres);
  const [minLon, minLat, maxLon, maxLat] = box;
  const onParcels = await source.db
    .selectFrom("addresses")
    .selectAll()
    .where(
      "parcel_id",
      "in",
      source.db
        .selectFrom("parcels")
        .select("parcel_id")
        .where(bboxMeets(source.dialect, "parcels", box)),
    )
    .execute();
  const withoutParcel = await source.db
    .selectFrom("addresses")
    .selectAll()
    .where("parcel_id", "is", null)
    .where("lat", ">=", minLat)
    .where("lat", "<=", maxLat)
    .where("lon", ">=", minLon)
    .where("lon", "<=", maxLon)
    .execute();
  return [...onParcels, ...withoutParcel];
}
