import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `POST /embed/api/orders` and `GET /embed/api/orders/{order_id}`. */
export function registerPageOrdersRoutes(_api: FastifyInstance, _services: Services): void {}
