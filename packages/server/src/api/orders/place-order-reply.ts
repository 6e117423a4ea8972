import type { OrderRequest } from "@lotline/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { HttpProblem } from "../../http/problem.js";
import { placeOrder } from "../../orders/place-order.js";
import type { Services } from "../../services.js";

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The optional `Idempotency-Key` header of a request placing an order. */
export const IdempotencyKeyHeaders = Type.Object({ "idempotency-key": Type.Optional(Type.String()) });

/**
 * Answers a request placing an order, the same on every edge: `202` with the order and its `Location`
 * (`ordersPath/{order_id}`), or the replay of an earlier answer (`Idempotency-Replayed: true`); a malformed
 * `Idempotency-Key` is a `400`. A new order wakes this process's workers.
 */
export async function replyPlacedOrder(
  services: Services,
  orgId: string,
  request: FastifyRequest<{ Body: OrderRequest }>,
  reply: FastifyReply,
  ordersPath: string,
): Promise<FastifyReply> {
  const key = idempotencyKeyOf(request);
  const placed = await placeOrder(services.database, orgId, request.body, key);
  if (placed.replayed) {
    return reply.code(placed.statusCode).header("idempotent-replayed", "true").send(placed.body);
  }
  services.nudgeWorkers();
  return reply.code(202).header("location", `${ordersPath}/${placed.body.order_id}`).send(placed.body);
}

/** The request's `Idempotency-Key`, if it sent one; a malformed one is a `400`. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  if (key !== undefined && (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key))) {
    throw new HttpProblem(
      400,
      "invalid_idempotency_key",
      "Bad Request",
      "Idempotency-Key is 1 to 255 printable ASCII characters",
    );
  }
  return key;
}
