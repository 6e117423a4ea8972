import { Problem, WebhookDelivery } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import type { Services } from "../../services.js";
import { getWebhookDelivery } from "../../webhooks/webhook-deliveries.js";

/** `GET /embed/api/webhook-deliveries/{webhook_id}`: one delivery and its attempts. */
export function registerPageWebhookDeliveryRoute(api: FastifyInstance, { db }: Services): void {
  api.get<{ Params: { webhook_id: string } }>(
    "/webhook-deliveries/:webhook_id",
    {
      schema: {
        hide: true,
        summary: "A webhook event sent to a callback URL, with every delivery attempt",
        params: Type.Object({ webhook_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: WebhookDelivery, "4xx": Problem },
      },
    },
    async (request) => getWebhookDelivery(db, request.session.orgId, request.params.webhook_id),
  );
}
