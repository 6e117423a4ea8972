import type { PropertyOrder } from "@lotline/contract";
import { orderFailureMessage } from "@lotline/contract/order-failures";
import { formatDateTime } from "../../format/format-date-time";
import { type Definition, DefinitionList } from "../../ui/definition-list";
import { Panel } from "../../ui/panel";

const STATUS_NAMES = { processing: "Processing", complete: "Complete", failed: "Failed" } as const;

/** The property's orders, newest first: status, when placed and finished, and why a failed one failed. */
export function OrderHistoryPanel({ orders }: { orders: readonly PropertyOrder[] }) {
  return (
    <Panel title="Order history">
      {orders.length === 0 ? (
        <p class="muted">No orders.</p>
      ) : (
        <ol class="orders">
          {orders.map((order) => {
            const items: Definition[] = [
              ["Status", STATUS_NAMES[order.status] ?? order.status],
              ["Placed", formatDateTime(order.created_at)],
            ];
            if (order.completed_at) items.push(["Finished", formatDateTime(order.completed_at)]);
            if (order.status === "failed") items.push(["Reason", orderFailureMessage(order.reason)]);
            items.push(["Order ID", <code>{order.order_id}</code>]);
            return (
              <li class="orders__item" key={order.order_id}>
                <DefinitionList items={items} />
              </li>
            );
          })}
        </ol>
      )}
    </Panel>
  );
}
