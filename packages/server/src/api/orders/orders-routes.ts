import { Order, OrderAccepted, OrderList, OrderRequest, type OrderStatus, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { HttpProblem } from "../../http/problem.js";
import { createOrder } from "../../orders/create-order.js";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestHash,
} from "../../orders/idempotency.js";
import { getOrder, listOrders } from "../../orders/order-queries.js";
import type { Services } from "../../services.js";

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

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
          "the first request runs, 409.",
        tags: ["orders"],
        security: [{ bearer: [] }],
        headers: Type.Object({ "idempotency-key": Type.Optional(Type.String()) }),
        body: OrderRequest,
        response: { 202: OrderAccepted, "4xx": Problem },
      },
    },
    async (request, reply) => {
      const orgId = request.caller.orgId;
      const key = request.headers["idempotency-key"];
      const accepted = (location: string) => reply.code(202).header("location", `/v1/orders/${location}`);
      if (key === undefined) {
        const order = await createOrder(db, orgId, request.body);
        services.nudgeWorkers();
        return accepted(order.order_id).send(order);
      }
      if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key)) {
        throw new HttpProblem(
          400,
          "invalid_idempotency_key",
          "Bad Request",
          "Idempotency-Key is 1 to 255 printable ASCII characters",
        );
      }
      const replay = await claimIdempotencyKey(db, orgId, key, requestHash(request.body));
      if (replay) return reply.code(replay.statusCode).header("idempotent-replayed", "true").send(replay.body);
      try {
        const order = await createOrder(db, orgId, request.body, (trx, answer) =>
          completeIdempotencyKey(trx, orgId, key, 202, answer),
        );
        services.nudgeWorkers();
        return accepted(order.order_id).send(order);
      } catch (error) {
        await releaseIdempotencyKey(db, orgId, key);
        throw error;
      }
    },
  );

  app.get<{ Params: { order_id: string } }>(
    "/orders/:order_id",
    {
      schema: {
        summary: "An order and its status",
        tags: ["orders"],
        security: [{ bearer: [] }],
        params: Type.Object({ order_id: Type.String() }),
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
