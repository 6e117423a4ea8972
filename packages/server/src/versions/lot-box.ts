import { bboxOf } from "../geo/geometry/index.js";
import type { Area, BBox, LonLat } from "../geo/types.js";
import type { StoredRecord } from "../orders/property-records.js";
import type { ProductInput } from "../products/product.js";

/**
 * The lot a record is computed for, as kept on the property: its box (the drawn boundary's, else the imported
 * parcel's, else the point's) and whether the user drew it. Imported data changing finds the records it may alter
 * by the box, and a catastrophe event meets a drawn lot by its own boundary rather than the parcel under it.
 */
export interface LotBox {
  box: BBox;
  drawn: boolean;
}

export function lotBoxOf({ boundary, parcel, point }: ProductInput): LotBox {
  const lot = boundary ?? parcel?.boundary;
  return { box: lot ? bboxOf(lot) : [point[0], point[1], point[0], point[1]], drawn: boundary !== undefined };
}

/** The lot of a record stored before lots were kept: its parcel product's boundary, else its point. */
export function storedLotBox(record: StoredRecord, point: LonLat): LotBox {
  const parcel = record.products.parcel as { boundary?: Area; boundary_source?: string } | undefined;
  return {
    box: parcel?.boundary ? bboxOf(parcel.boundary) : [point[0], point[1], point[0], point[1]],
    drawn: parcel?.boundary_source === "user",
  };
}

/** The lot as the properties table's columns. */
export function lotBoxColumns({ box: [minLon, minLat, maxLon, maxLat], drawn }: LotBox) {
  return {
    lot_min_lon: minLon,
    lot_min_lat: minLat,
    lot_max_lon: maxLon,
    lot_max_lat: maxLat,
    lot_drawn: drawn ? 1 : 0,
  };
}
