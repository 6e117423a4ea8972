import type { OrderAccepted, OrderRequest } from "@lotline/contract";
import type { Database } from "../db/database.js";
import { createOrder } from "./create-order.js";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, requestHash } from "./idempotency.js";

/** What placing an order answers: a new order (202), or the stored answer to an earlier request with the same key. */
export type PlacedOrder =
  | { replayed: false; statusCode: 202; body: OrderAccepted }
  | { replayed: true; statusCode: number; body: unknown };

/**
 * Places an order as every edge does (`POST /v1/orders`, `POST /embed/api/orders`): without an `Idempotency-Key`,
 * simply {@link createOrder}; with one, the same key and body replay the first answer, another body is refused
 * (`idempotency_key_reused`) and a key still being answered conflicts (`idempotency_key_in_use`). The key is
 * completed in the order's own transaction, and freed again when placing the order fails.
 */
export async function placeOrder(
  database: Pick<Database, "db" | "dialect" | "syncLog">,
  orgId: string,
  request: OrderRequest,
  idempotencyKey?: string,
): Promise<PlacedOrder> {
  if (idempotencyKey === undefined) {
    return { replayed: false, statusCode: 202, body: await createOrder(database, orgId, request) };
  }
  const replay = await claimIdempotencyKey(database.db, orgId, idempotencyKey, requestHash(request));
  if (replay) return { replayed: true, statusCode: replay.statusCode, body: replay.body };
  try {
    const body = await createOrder(database, orgId, request, (trx, answer) =>
      completeIdempotencyKey(trx, orgId, idempotencyKey, 202, answer),
    );
    return { replayed: false, statusCode: 202, body };
  } catch (error) {
    await releaseIdempotencyKey(database.db, orgId, idempotencyKey);
    throw error;
  }
}
