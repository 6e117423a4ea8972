import { StatusMessage } from "../../ui/status-message";
import type { OrderState } from "./use-place-order";

/** Where the order stands once it has been sent, announced as it changes. */
export function OrderProgress({ state }: { state: OrderState }) {
  return (
    <StatusMessage class="order-progress">
      {state.status === "placing" && <p class="busy">Placing the order…</p>}
      {state.status === "processing" && (
        <p class="busy">
          Order placed for property {state.property_id}. Processing it; this usually takes a few seconds…
        </p>
      )}
      {state.status === "complete" && (
        <div class="done">
          <p class="done__title">Order complete.</p>
          <p>
            Property {state.property_id} now holds the order's data. Return to your system to continue; it has been told
            that the order is complete.
          </p>
        </div>
      )}
      {state.status === "failed" && (
        <div class="failed">
          <p class="failed__title">The order for property {state.property_id} failed.</p>
          <p>{state.message}</p>
        </div>
      )}
    </StatusMessage>
  );
}
