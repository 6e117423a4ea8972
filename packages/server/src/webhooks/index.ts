/**
 * Webhooks (DESIGN.md §8), free of the database: event ids and bodies, Standard Webhooks signing, the callback
 * prefix rule, the address checks against server-side request forgery, and one delivery attempt.
 */
export { type AddressClass, addressClass } from "./address-class.js";
export { BlockedAddressError } from "./blocked-address-error.js";
export { callbackUrlAllowed } from "./callback-url-allowed.js";
export { type DeliveryResult, deliverWebhook, type WebhookDelivery } from "./deliver-webhook.js";
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./event-types.js";
export { HostLookupError } from "./host-lookup-error.js";
export { newEventId } from "./new-event-id.js";
export { MAX_RETRY_AFTER_MS, parseRetryAfter } from "./parse-retry-after.js";
export { type HostLookup, resolveSafeAddress, systemLookup } from "./resolve-safe-address.js";
export { signWebhook } from "./sign-webhook.js";
export { webhookBody } from "./webhook-body.js";
export { type WebhookHeaders, webhookHeaders } from "./webhook-headers.js";
