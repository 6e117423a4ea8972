import { Order, OrderAccepted, OrderList, OrderRequest, type OrderStatus, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { getOrder, listOrders } from "../../orders/order-queries.js";
import type { Services } from "../../services.js";
import { IdempotencyKeyHeaders, replyPlacedOrder } from "./place-order-reply.js";

const ListQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal("processing"), Type.Literal("complete"), Type.Literal("failed")])),
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});

/** `POST /v1/orders`, `GET /v1/orders/{order_id}`, `GET /v1/orders`. */
export function registerOrdersRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  app.post<{ Body: OrderRequest }>(
    "/orders",
    {
      schema: {
        summary: "Place an order for a property's data",
        description:
          "Accepted orders are processed in the background: poll GET /v1/orders/{order_id} or pass a callback_url. " +
          "Send an Idempotency-Key header (any printable ASCII, up to 255 characters) to retry safely: the same key " +
          "with the same body replays the first answer for 24 hours; with another body it is refused (422); while " +
          "the first request runs, 409. A parcel_boundary is checked at once: an invalid one is refused (422) with " +
          "the reason its order would fail with as code (boundary_invalid, boundary_self_intersecting when it " +
          "crosses or touches itself, boundary_too_small, boundary_too_large); one beyond the geometry limits " +
          "(5,000 positions a ring, 100 rings, 10,000 positions in all) with geometry_limit_exceeded, one that " +
          "takes over 2 s to check with geometry_too_complex; while too many are being checked, 503 geometry_busy " +
          "with Retry-After.",
        tags: ["orders"],
        security: [{ bearer: [] }],
        headers: IdempotencyKeyHeaders,
        body: OrderRequest,
        response: { 202: OrderAccepted, "4xx": Problem, 503: Problem },
      },
    },
    async (request, reply) => replyPlacedOrder(services, request.caller.orgId, request, reply, "/v1/orders"),
  );

  app.get<{ Params: { order_id: string } }>(
    "/orders/:order_id",
    {
      schema: {
        summary: "An order and its status",
        tags: ["orders"],
        security: [{ bearer: [] }],
        params: Type.Object({ order_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Order, "4xx": Problem },
      },
    },
    async (request) => getOrder(db, request.caller.orgId, request.params.order_id),
  );

  app.get<{ Querystring: { status?: OrderStatus; external_id?: string; limit?: number; cursor?: string } }>(
    "/orders",
    {
      schema: {
        summary: "The organization's orders, newest first",
        tags: ["orders"],
        security: [{ bearer: [] }],
        querystring: ListQuery,
        response: { 200: OrderList, "4xx": Problem },
      },
    },
    async (request) =>
      listOrders(db, request.caller.orgId, {
        limit: request.query.limit ?? 20,
        ...(request.query.status ? { status: request.query.status } : {}),
        ...(request.query.external_id ? { externalId: request.query.external_id } : {}),
        ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
      }),
  );
}
