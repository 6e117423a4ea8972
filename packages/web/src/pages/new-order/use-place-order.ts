import type { Order, OrderRequest } from "@lotline/contract";
import { orderFailureMessage } from "@lotline/contract/order-failures";
import { useCallback, useRef, useState } from "preact/hooks";
import type { ApiClient } from "../../api/api-client";
import { getOrder } from "../../api/get-order";
import { placeOrder } from "../../api/place-order";
import { postToHost } from "../../messages/post-to-host";
import { backoffDelay } from "../../poll/backoff-delay";
import { pollUntil } from "../../poll/poll-until";

export type OrderState =
  | { status: "editing" }
  | { status: "placing" }
  | { status: "processing"; order_id: string; property_id: number }
  | { status: "complete"; order_id: string; property_id: number }
  | { status: "failed"; order_id: string; property_id: number; message: string }
  /** The order was not accepted; the form stays open to correct and retry. */
  | { status: "refused"; message: string };

/**
 * Placing the order and following it: `POST /embed/api/orders` with an Idempotency-Key (the same key when the same
 * order is sent again after a failure, so a retry never orders twice), then `GET /embed/api/orders/{id}` about
 * every second until it settles. Tells the host at each step: `service-order-processing`, then
 * `service-order-complete` (`status: "complete"`); or, when the order failed, `service-error` with the reason in
 * words and then `service-order-complete` (`status: "failed"` and the reason's code), since processing has ended
 * all the same and a host may be waiting for that.
 */
export function usePlaceOrder(api: ApiClient): { state: OrderState; place: (order: OrderRequest) => Promise<void> } {
  const [state, setState] = useState<OrderState>({ status: "editing" });
  const attempt = useRef<{ body: string; key: string } | undefined>(undefined);

  const place = useCallback(
    async (order: OrderRequest) => {
      const body = JSON.stringify(order);
      if (attempt.current?.body !== body) attempt.current = { body, key: crypto.randomUUID() };
      setState({ status: "placing" });
      let accepted: { order_id: string; property_id: number };
      try {
        accepted = await placeOrder(api, order, attempt.current.key);
      } catch (error) {
        const message = `The order could not be placed: ${error instanceof Error ? error.message : error}`;
        setState({ status: "refused", message });
        postToHost({ type: "service-error", message });
        return;
      }
      const { order_id, property_id } = accepted;
      setState({ status: "processing", order_id, property_id });
      postToHost({ type: "service-order-processing", property_id });
      try {
        const settled = await pollUntil(() => getOrder(api, order_id), {
          done: (current: Order) => current.status !== "processing",
          delay: (calls) => backoffDelay(calls, { fastCalls: 60 }),
        });
        if (settled.status === "complete") {
          setState({ status: "complete", order_id, property_id });
          postToHost({ type: "service-order-complete", property_id, status: "complete" });
        } else {
          const message = orderFailureMessage(settled.reason);
          setState({ status: "failed", order_id, property_id, message });
          postToHost({ type: "service-error", message, property_id });
          postToHost({
            type: "service-order-complete",
            property_id,
            status: "failed",
            ...(settled.reason === undefined ? {} : { reason: settled.reason }),
          });
        }
      } catch (error) {
        const message = `The order's progress could not be followed: ${error instanceof Error ? error.message : error}`;
        setState({ status: "failed", order_id, property_id, message });
        postToHost({ type: "service-error", message, property_id });
      }
    },
    [api],
  );
  return { state, place };
}
