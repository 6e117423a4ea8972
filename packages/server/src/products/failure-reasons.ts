import { DomainError } from "../errors.js";

// Why an order cannot be served: the `reason` of a failed order. Each value is its own name, a stable machine code.

/** The order's address matched no address in the imported data well enough to stand for it. */
export const ADDRESS_NOT_FOUND = "address_not_found";
/** No imported parcel lies at the location and the order drew no boundary, yet a product needs a lot. */
export const NO_PARCEL_AT_LOCATION = "no_parcel_at_location";
/** The drawn boundary is not a polygon: wrong type, bad coordinates, too few positions, no area (see `detail`). */
export const BOUNDARY_INVALID = "boundary_invalid";
/** The drawn boundary crosses or touches itself (a bow-tie) or its holes cross it: it is refused, not repaired. */
export const BOUNDARY_SELF_INTERSECTING = "boundary_self_intersecting";
/** The drawn boundary encloses less than {@link MIN_BOUNDARY_M2}: no lot is that small. */
export const BOUNDARY_TOO_SMALL = "boundary_too_small";
/** The drawn boundary encloses more than {@link MAX_BOUNDARY_M2}: not one property. */
export const BOUNDARY_TOO_LARGE = "boundary_too_large";

/** Every failure reason, for documentation (OpenAPI) and for tests. */
export const FAILURE_REASONS = [
  ADDRESS_NOT_FOUND,
  NO_PARCEL_AT_LOCATION,
  BOUNDARY_INVALID,
  BOUNDARY_SELF_INTERSECTING,
  BOUNDARY_TOO_SMALL,
  BOUNDARY_TOO_LARGE,
] as const;

export type FailureReason = (typeof FAILURE_REASONS)[number];

/** The smallest drawn boundary accepted, m². */
export const MIN_BOUNDARY_M2 = 10;
/** The largest drawn boundary accepted, m² (1 km²). */
export const MAX_BOUNDARY_M2 = 1_000_000;

/** An order that cannot be served; `code` is its {@link FailureReason}, the message says why in words. */
export class OrderFailure extends DomainError {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(reason, message);
  }
}
