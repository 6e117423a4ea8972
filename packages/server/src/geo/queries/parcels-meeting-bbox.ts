import { bboxPolygon } from "../geometry/bbox-polygon.js";
import { intersects } from "../geometry/index.js";
import type { Parcel } from "../store/geo-rows.js";
import { readParcels } from "../store/read-spatial-rows.js";
import { bboxMeets, type GeoSource, idForOrder } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";
import { type Capped, collectMatches } from "./collect-matches.js";

/** The parcels meeting a box (touching counts), in id order, at most `limit` of them. */
export async function parcelsMeetingBBox(source: GeoSource, bbox: BBox, limit: number): Promise<Capped<Parcel>> {
  const area = bboxPolygon(bbox);
  return collectMatches(
    (afterId, batch) =>
      readParcels(source, (query) =>
        query
          .where(bboxMeets(source.dialect, "parcels", bbox))
          .where(idForOrder(source.dialect, "parcel_id"), ">", afterId)
          .orderBy(idForOrder(source.dialect, "parcel_id"))
          .limit(batch),
      ),
    (parcel) => parcel.parcelId,
    (parcel) => intersects(parcel.boundary, area),
    limit,
  );
}
