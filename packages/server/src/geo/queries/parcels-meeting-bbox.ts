import { bboxPolygon } from "../geometry/bbox-polygon.js";
import { intersects } from "../geometry/index.js";
import { type Parcel, toParcel } from "../store/geo-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";
import { type Capped, collectMatches } from "./collect-matches.js";

/** The parcels meeting a box (touching counts), in id order, at most `limit` of them. */
export async function parcelsMeetingBBox(
  { db, dialect }: GeoSource,
  bbox: BBox,
  limit: number,
): Promise<Capped<Parcel>> {
  const area = bboxPolygon(bbox);
  return collectMatches(
    async (afterId, batch) =>
      (
        await db
          .selectFrom("parcels")
          .selectAll()
          .where(bboxMeets(dialect, "parcels", bbox))
          .where("parcel_id", ">", afterId)
          .orderBy("parcel_id")
          .limit(batch)
          .execute()
      ).map(toParcel),
    (parcel) => parcel.parcelId,
    (parcel) => intersects(parcel.boundary, area),
    limit,
  );
}
