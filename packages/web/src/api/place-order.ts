import type { OrderAccepted, OrderRequest } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/**
 * `POST /embed/api/orders`. The same `idempotencyKey` on a retry of the same order makes the server answer with
 * the order it already accepted instead of placing a second one.
 */
export function placeOrder(api: ApiClient, order: OrderRequest, idempotencyKey: string): Promise<OrderAccepted> {
  return api.request<OrderAccepted>("/orders", {
    method: "POST",
    body: order,
    headers: { "idempotency-key": idempotencyKey },
  });
}
