/** The event types a webhook carries (DESIGN.md §8). */
export const WEBHOOK_EVENT_TYPES = [
  "order.complete",
  "order.failed",
  "footprint.submitted",
  "order-batch.complete",
  "event.impacted",
  "property.changed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
