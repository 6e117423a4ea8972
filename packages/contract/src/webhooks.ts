import { type Static, Type } from "typebox";

/** One attempt to deliver a webhook event, as logged. */
export const WebhookAttempt = Type.Object({
  attempted_at: Type.String({ format: "date-time" }),
  duration_ms: Type.Integer(),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  response_excerpt: Type.Union([Type.String(), Type.Null()], { description: "The start of the response body." }),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

/** A webhook event for one callback URL and every attempt to deliver it; `webhook_id` is the `webhook-id` header. */
export const WebhookDelivery = Type.Object({
  webhook_id: Type.String(),
  type: Type.String(),
  url: Type.String(),
  status: Type.Union([Type.Literal("pending"), Type.Literal("delivered"), Type.Literal("failed")]),
  created_at: Type.String({ format: "date-time" }),
  delivered_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  payload: Type.Unknown({ description: "The body sent: {type, timestamp, data}." }),
  attempts: Type.Array(WebhookAttempt),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryList = Type.Object({
  data: Type.Array(WebhookDelivery),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;
