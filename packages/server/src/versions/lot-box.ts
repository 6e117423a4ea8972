import { bboxOf } from "../geo/geometry/index.js";
import type { Area, BBox, LonLat } from "../geo/types.js";
import type { StoredRecord } from "../orders/property-records.js";
import type { ProductInput } from "../products/product.js";

/**
 * The box of the lot a record is computed for: the drawn boundary, else the imported parcel, else the point. It
 * is kept on the property so that a change of imported data finds the records it may alter without reading them.
 */
export function lotBoxOf({ boundary, parcel, point }: ProductInput): BBox {
  const lot = boundary ?? parcel?.boundary;
  return lot ? bboxOf(lot) : [point[0], point[1], point[0], point[1]];
}

/** The lot box of a record stored before lot boxes were kept: its parcel product's boundary, else its point. */
export function storedLotBox(record: StoredRecord, point: LonLat): BBox {
  const parcel = record.products.parcel as { boundary?: Area } | undefined;
  return parcel?.boundary ? bboxOf(parcel.boundary) : [point[0], point[1], point[0], point[1]];
}

/** The lot box as the properties table's columns. */
export function lotBoxColumns([minLon, minLat, maxLon, maxLat]: BBox) {
  return { lot_min_lon: minLon, lot_min_lat: minLat, lot_max_lon: maxLon, lot_max_lat: maxLat };
}
