/**
 * The window messages between an embedded page and its host (INTERFACE.md §6, DESIGN.md §7).
 *
 * Pages post {@link ServiceMessage}s to `window.parent`, always with an exact registered origin as `targetOrigin`.
 * The five types of INTERFACE.md §6 and their fields are contract: fields and types may be added, never changed
 * (`service-session-ended` is one such addition). A host may post a
 * {@link HostMessage} to a page (to hand it a fresh iframe JWT without reloading it).
 *
 * This module is plain TypeScript with no runtime dependency, so pages and host code can import it without
 * pulling the schema library into a browser bundle.
 */

/** The user placed an order for this property. */
export interface OrderProcessingMessage {
  type: "service-order-processing";
  property_id: number;
}

/**
 * Processing of the order for this property finished, whether it completed or failed: a host that waits for the end
 * always hears of it. `status` and `reason` are additions to INTERFACE.md's fields, sent by the pages every time.
 */
export interface OrderCompleteMessage {
  type: "service-order-complete";
  property_id: number;
  /** How processing ended; `failed` follows a `service-error` that says why in words. */
  status?: OrderOutcome;
  /** Why a failed order failed, as the data API's order names it (e.g. `no_parcel_at_location`). */
  reason?: string;
}

/** How an order's processing ended. */
export type OrderOutcome = "complete" | "failed";

/** Something went wrong inside the page; `message` is readable by the page's user. */
export interface ServiceErrorMessage {
  type: "service-error";
  message: string;
  property_id?: number;
}

/**
 * On the footprint selection page, a selection was submitted to be sent to the core system by webhook. `address` is
 * the one the host passed in the page's `address` parameter, as it wrote it, or else the address the page located.
 */
export interface FootprintSubmittedMessage {
  type: "service-footprint-submitted";
  address: string;
}

/** After a footprint submission, the webhook delivery to `callback_url` finished; `address` as submitted. */
export interface FootprintCallbackCompletedMessage {
  type: "service-footprint-callback-completed";
  address: string;
}

/**
 * The page's session ended and it went to `/login` (missing, invalid or expired JWT). Sent by `/login`, besides
 * `service-error`, when it knows the organization's registered origins; a host that gets it should open the page
 * again with a fresh token. An additional type (DESIGN.md §7 allows adding types), not one of INTERFACE.md's five.
 */
export interface SessionEndedMessage {
  type: "service-session-ended";
  reason: SessionEndedReason;
}

/** Why a page's session ended, as `/login` names it. */
export type SessionEndedReason = "missing" | "invalid" | "expired";

export type ServiceMessage =
  | OrderProcessingMessage
  | OrderCompleteMessage
  | ServiceErrorMessage
  | FootprintSubmittedMessage
  | FootprintCallbackCompletedMessage
  | SessionEndedMessage;

export type ServiceMessageType = ServiceMessage["type"];

export const SERVICE_MESSAGE_TYPES: readonly ServiceMessageType[] = [
  "service-order-processing",
  "service-order-complete",
  "service-error",
  "service-footprint-submitted",
  "service-footprint-callback-completed",
  "service-session-ended",
];

/** The message of one type, e.g. `ServiceMessageOf<"service-error">`. */
export type ServiceMessageOf<T extends ServiceMessageType> = Extract<ServiceMessage, { type: T }>;

/**
 * Whether `value` is one of the service messages with the fields its type requires. Host code should also check
 * `event.source` and `event.origin` before trusting a message; this checks only its shape.
 */
export function isServiceMessage(value: unknown): value is ServiceMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case "service-order-processing":
      return isPropertyId(message.property_id);
    case "service-order-complete":
      return (
        isPropertyId(message.property_id) &&
        (message.status === undefined || message.status === "complete" || message.status === "failed") &&
        (message.reason === undefined || typeof message.reason === "string")
      );
    case "service-error":
      return (
        typeof message.message === "string" && (message.property_id === undefined || isPropertyId(message.property_id))
      );
    case "service-footprint-submitted":
    case "service-footprint-callback-completed":
      return typeof message.address === "string";
    case "service-session-ended":
      return message.reason === "missing" || message.reason === "invalid" || message.reason === "expired";
    default:
      return false;
  }
}

const isPropertyId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * Host → page: a fresh iframe JWT for a page that is already open, so a long session continues without a reload
 * (and without losing what the user entered). The page accepts it only from `window.parent` at a registered
 * origin, and only once the server has accepted the token.
 */
export interface HostSessionTokenMessage {
  type: "host-session-token";
  token: string;
}

export type HostMessage = HostSessionTokenMessage;

export function isHostMessage(value: unknown): value is HostMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return message.type === "host-session-token" && typeof message.token === "string" && message.token.length > 0;
}
