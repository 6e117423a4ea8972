import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `GET /embed/api/webhook-deliveries/{webhook_id}`: one delivery and its attempts. */
export function registerPageWebhookDeliveryRoute(_api: FastifyInstance, _services: Services): void {}
