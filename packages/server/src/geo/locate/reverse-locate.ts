import { geodesicDistance } from "../geometry/index.js";
import { parcelAt } from "../queries/parcel-at.js";
import type { Parcel } from "../store/geo-rows.js";
import type { GeoSource } from "../store/spatial-filter.js";
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
  const [lon, lat] = point;
  const rows = parcel
    ? await source.db.selectFrom("addresses").selectAll().where("parcel_id", "=", parcel.parcelId).execute()
    : await source.db
        .selectFrom("addresses")
        .selectAll()
        .where("lat", ">=", lat - 0.0005)
        .where("lat", "<=", lat + 0.0005)
        .where("lon", ">=", lon - 0.0007)
        .where("lon", "<=", lon + 0.0007)
        .execute();
  const nearest = rows
    .map((row) => ({ row, distance: geodesicDistance(point, [row.lon, row.lat]) }))
    .filter((hit) => parcel !== undefined || hit.distance <= NO_PARCEL_RADIUS_M)
    .sort((a, b) => a.distance - b.distance || a.row.address_id - b.row.address_id)[0];
  return { parcel, address: nearest ? toCandidate(nearest.row, 1) : undefined };
}
