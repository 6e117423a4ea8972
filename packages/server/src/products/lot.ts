import type { Parcel } from "../geo/store/geo-rows.js";
import type { Area } from "../geo/types.js";
import { NO_PARCEL_AT_LOCATION, OrderFailure } from "./failure-reasons.js";
import type { ProductInput } from "./product.js";

/** The lot the products describe: the user's boundary when the order drew one, else the imported parcel's. */
export interface Lot {
  boundary: Area;
  boundarySource: "user" | "imported";
  /** The imported parcel at the location, which a drawn boundary redraws; absent on land without a parcel. */
  parcel: Parcel | undefined;
}

/** The lot of an order; throws `no_parcel_at_location` when there is neither a boundary nor a parcel. */
export function lotOf(input: ProductInput): Lot {
  if (input.boundary) return { boundary: input.boundary, boundarySource: "user", parcel: input.parcel };
  if (input.parcel) return { boundary: input.parcel.boundary, boundarySource: "imported", parcel: input.parcel };
  const [lon, lat] = input.point;
  throw new OrderFailure(NO_PARCEL_AT_LOCATION, `no parcel lies at ${lat}, ${lon} and the order drew no boundary`);
}
