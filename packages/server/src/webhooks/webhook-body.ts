import type { WebhookEventType } from "./event-types.js";

/**
 * The exact JSON body of a webhook (DESIGN.md §8): `{"type","timestamp","data"}`, `timestamp` being `now`
 * (epoch milliseconds) in ISO 8601. Store the string as built: every attempt sends and signs the same bytes.
 *
 * @example
 * webhookBody("order.complete", { order_id: "ord_1" }, Date.UTC(2025, 0, 2))
 * // '{"type":"order.complete","timestamp":"2025-01-02T00:00:00.000Z","data":{"order_id":"ord_1"}}'
 */
export function webhookBody(type: WebhookEventType, data: Readonly<Record<string, unknown>>, now: number): string {
  return JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
}
