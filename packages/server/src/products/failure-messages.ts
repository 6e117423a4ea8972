import { ORDER_FAILURE_MESSAGES } from "@lotline/contract/order-failures";
import type { FailureReason } from "./failure-reasons.js";

/**
 * The sentence for each failure reason, as the contract publishes it to the pages. Typed by {@link FailureReason}
 * so that a reason added to `failure-reasons.ts` without its sentence in the contract does not compile.
 */
export const FAILURE_MESSAGES: Readonly<Record<FailureReason, string>> = ORDER_FAILURE_MESSAGES;

/**
 * What a failure reason means, for the user of a page.
 *
 * @example
 * failureMessage("boundary_self_intersecting"); //= "The boundary crosses itself. Redraw it so that …"
 */
export function failureMessage(reason: FailureReason): string {
  return FAILURE_MESSAGES[reason];
}
