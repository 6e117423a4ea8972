import type { ApiClient, PropertyRecord } from "@lotline/host-sdk/server";

export interface PolicyLocation {
  address: string;
  externalId: string;
  /** Where Lotline posts `order.complete` or `order.failed`; must start with a registered callback prefix. */
  callbackUrl?: string;
  /** An id of your own for this request (a policy transaction id): retries with it place the order once. */
  requestId: string;
}

/** Orders a property's data and reads the property record once the order is complete. */
export async function orderProperty(api: ApiClient, policy: PolicyLocation): Promise<PropertyRecord> {
  const placed = await api.createOrder(
    { address: policy.address, external_id: policy.externalId, callback_url: policy.callbackUrl },
    { idempotencyKey: policy.requestId },
  );
  // Polling keeps the example short; in production, wait for the order.complete webhook instead.
  for (;;) {
    const order = await api.getOrder(placed.order_id);
    if (order.status === "complete") return api.getProperty(order.property_id);
    if (order.status === "failed") throw new Error(`order ${order.order_id} failed: ${order.reason}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
