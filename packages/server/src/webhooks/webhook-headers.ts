import { signWebhook } from "./sign-webhook.js";

/** The headers of one delivery attempt (a type alias, so it passes as a `Record<string, string>`). */
export type WebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
  "content-type": "application/json";
  "user-agent": "Lotline-Webhooks/1";
};

/**
 * The Standard Webhooks headers for one attempt: the event's `id` (the same on every attempt), the attempt's
 * `timestamp` in seconds, and the signature of both with `body` (see {@link signWebhook}).
 */
export function webhookHeaders(secret: string, id: string, timestamp: number, body: string): WebhookHeaders {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, id, timestamp, body),
    "content-type": "application/json",
    "user-agent": "Lotline-Webhooks/1",
  };
}
