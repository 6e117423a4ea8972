/**
 * What each `reason` of a failed order (and of a refused boundary check) means, in words a page's user can act on.
 * The keys are the stable machine codes; a page shows the sentence, e.g. in a `service-error` message.
 *
 * Plain TypeScript with no runtime dependency, so pages import it (`@lotline/contract/order-failures`) without
 * pulling the schema library into a browser bundle.
 */
export const ORDER_FAILURE_MESSAGES = {
  address_not_found: "The address could not be found. Check it, or place the property on the map instead.",
  no_parcel_at_location: "No parcel was found at this location. Draw the parcel boundary on the map.",
  boundary_invalid: "The boundary is not a shape that encloses an area. Draw it again with at least three corners.",
  boundary_self_intersecting: "The boundary crosses itself. Redraw it so that its edges do not cross.",
  boundary_too_small: "The boundary is too small: it must enclose at least 10 m² (108 sq ft).",
  boundary_too_large: "The boundary is too large: it must enclose at most 1 km² (247 acres), one property.",
} as const satisfies Record<string, string>;
export type OrderFailureReason = keyof typeof ORDER_FAILURE_MESSAGES;

/** The sentence for a failed order's `reason`; a general one for a reason this contract does not know yet. */
export function orderFailureMessage(reason: string | undefined): string {
  return reason !== undefined && Object.hasOwn(ORDER_FAILURE_MESSAGES, reason)
    ? ORDER_FAILURE_MESSAGES[reason as OrderFailureReason]
    : "The order could not be completed.";
}
