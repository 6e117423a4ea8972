import { Order, OrderAccepted, OrderRequest, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { IdempotencyKeyHeaders, replyPlacedOrder } from "../../api/orders/place-order-reply.js";
import { getOrder } from "../../orders/order-queries.js";
import type { Services } from "../../services.js";

/**
 * `POST /embed/api/orders` and `GET /embed/api/orders/{order_id}`: orders placed from a page are data API orders
 * in every respect (checks, idempotency, processing, webhooks); only the credential differs.
 */
export function registerPageOrdersRoutes(api: FastifyInstance, services: Services): void {
  api.post<{ Body: OrderRequest }>(
    "/orders",
    {
      schema: {
        hide: true,
        summary: "Place an order for a property's data",
        headers: IdempotencyKeyHeaders,
        body: OrderRequest,
        response: { 202: OrderAccepted, "4xx": Problem },
      },
    },
    async (request, reply) => replyPlacedOrder(services, request.session.orgId, request, reply, "/embed/api/orders"),
  );

  api.get<{ Params: { order_id: string } }>(
    "/orders/:order_id",
    {
      schema: {
        hide: true,
        summary: "An order and its status",
        params: Type.Object({ order_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Order, "4xx": Problem },
      },
    },
    async (request) => getOrder(services.db, request.session.orgId, request.params.order_id),
  );
}
