import type { Order } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** `GET /embed/api/orders/{order_id}`: the order's status (`processing`, `complete`, `failed` with a reason). */
export function getOrder(api: ApiClient, orderId: string): Promise<Order> {
  return api.request<Order>(`/orders/${encodeURIComponent(orderId)}`);
}
