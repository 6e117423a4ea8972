import { Problem, WebhookDeliveryList } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import type { WebhookEventStatus } from "../../db/schema.js";
import type { Services } from "../../services.js";
import { listWebhookDeliveries, redeliverWebhook } from "../../webhooks/webhook-deliveries.js";

/** `GET /v1/webhook-deliveries` and `POST /v1/webhook-deliveries/{webhook_id}/redeliver`. */
export function registerWebhookDeliveriesRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;
  app.get<{ Querystring: { status?: WebhookEventStatus; limit?: number; cursor?: string } }>(
    "/webhook-deliveries",
    {
      schema: {
        summary: "Webhook events sent to the organization's callback URLs, with every delivery attempt",
        tags: ["webhooks"],
        security: [{ bearer: [] }],
        querystring: Type.Object({
          status: Type.Optional(
            Type.Union([Type.Literal("pending"), Type.Literal("delivered"), Type.Literal("failed")]),
          ),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        }),
        response: { 200: WebhookDeliveryList, "4xx": Problem },
      },
    },
    async (request) =>
      listWebhookDeliveries(db, request.caller.orgId, {
        limit: request.query.limit ?? 20,
        ...(request.query.status ? { status: request.query.status } : {}),
        ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
      }),
  );

  app.post<{ Params: { webhook_id: string } }>(
    "/webhook-deliveries/:webhook_id/redeliver",
    {
      schema: {
        summary: "Send a webhook event again, with the same webhook-id",
        tags: ["webhooks"],
        security: [{ bearer: [] }],
        params: Type.Object({ webhook_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { "4xx": Problem },
      },
    },
    async (request, reply) => {
      await redeliverWebhook(db, request.caller.orgId, request.params.webhook_id);
      services.nudgeWorkers();
      return reply.code(202).send({ webhook_id: request.params.webhook_id, status: "pending" });
    },
  );
}
