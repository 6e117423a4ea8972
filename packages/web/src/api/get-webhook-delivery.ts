import type { WebhookDelivery } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** `GET /embed/api/webhook-deliveries/{webhook_id}`: the delivery's status and every attempt so far. */
export function getWebhookDelivery(api: ApiClient, webhookId: string): Promise<WebhookDelivery> {
  return api.request<WebhookDelivery>(`/webhook-deliveries/${encodeURIComponent(webhookId)}`);
}
