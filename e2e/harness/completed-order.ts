import { accessTokenFor, type TestTenant } from "../../packages/server/src/test/test-app.js";
import type { LotlineServer } from "./lotline-server.js";

/**
 * Places an order through the data API, as a core system would without the pages, and waits until the workers
 * complete it. Answers the property it created.
 */
export async function completedOrder(lotline: LotlineServer, tenant: TestTenant, address: string): Promise<number> {
  const token = await accessTokenFor(lotline.test, tenant);
  const headers = { authorization: `Bearer ${token}` };
  const placed = await lotline.test.app.inject({ method: "POST", url: "/v1/orders", headers, payload: { address } });
  if (placed.statusCode !== 202) throw new Error(`the order was refused: ${placed.body}`);
  const { order_id, property_id } = placed.json() as { order_id: string; property_id: number };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const order = (await lotline.test.app.inject({ url: `/v1/orders/${order_id}`, headers })).json();
    if (order.status === "complete") return property_id;
    if (order.status !== "processing" || Date.now() > deadline) {
      throw new Error(`the order did not complete: ${JSON.stringify(order)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
