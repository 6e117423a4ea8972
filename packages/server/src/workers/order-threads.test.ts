import type { Order, OrderAccepted, OrderBatchAccepted } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../cli/server.js";
import { loadConfig } from "../config/config.js";
import { importDemoNeighbourhood } from "../geo/import/import-demo-neighbourhood.js";
import { addressLine } from "../geo/store/address-line.js";
import { accessTokenOver, createTenant, freePort, type TestTenant } from "../test/test-app.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";

describe("a service whose orders are processed on order threads", () => {
  let testDatabase: TestDatabase;
  let server: RunningServer;
  let tenant: TestTenant;
  let token: string;
  let addresses: string[];

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    const port = await freePort();
    server = await startServer(
      loadConfig({
        LOTLINE_DATABASE_URL: testDatabase.url,
        LOTLINE_LOG_LEVEL: "silent",
        LOTLINE_ORDER_THREADS: "1",
        PORT: String(port),
        LOTLINE_MANAGEMENT_PORT: "0",
      }),
    );
    await importDemoNeighbourhood(server.services.database);
    tenant = await createTenant(server.services);
    token = await accessTokenOver(server.url, server.services.config.apiAudience, tenant);
    const rows = await server.services.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .limit(6)
      .execute();
    addresses = rows.map((row) => addressLine(row).split(",")[0] ?? "");
  });
  afterAll(async () => {
    await server?.stop();
    await testDatabase.destroy();
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
    });

  async function settled(orderId: string): Promise<Order> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const order = (await (await call(`/v1/orders/${orderId}`)).json()) as Order;
      if (order.status !== "processing" || Date.now() > deadline) return order;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("completes single orders and a batch's orders, which the main thread no longer runs", async () => {
    const placed = await Promise.all(
      addresses.slice(0, 3).map(async (address) => {
        const response = await call("/v1/orders", { method: "POST", body: JSON.stringify({ address }) });
        expect(response.status).toBe(202);
        return (await response.json()) as OrderAccepted;
      }),
    );
    for (const { order_id } of placed) expect((await settled(order_id)).status).toBe("complete");

    const batch = await call("/v1/order-batches", {
      method: "POST",
      body: JSON.stringify({ orders: addresses.slice(3).map((address) => ({ address })) }),
    });
    expect(batch.status).toBe(202);
    const { batch_id } = (await batch.json()) as OrderBatchAccepted;
    const deadline = Date.now() + 20_000;
    let status = "processing";
    while (status === "processing" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = ((await (await call(`/v1/order-batches/${batch_id}`)).json()) as { status: string }).status;
    }
    expect(status).toBe("complete");
  });

  it("stops its threads with the service, after they finish the jobs they hold", async () => {
    const response = await call("/v1/orders", { method: "POST", body: JSON.stringify({ address: addresses[0] }) });
    const { order_id } = (await response.json()) as OrderAccepted;
    await server.stop();
    server = undefined as unknown as RunningServer;
    // Looked at through the test's own connection: no job was left running under a lease by a thread cut off.
    const running = await testDatabase.database.db
      .selectFrom("jobs")
      .select("job_id")
      .where("status", "=", "running")
      .execute();
    expect(running).toEqual([]);
    const order = await testDatabase.database.db
      .selectFrom("orders")
      .select("status")
      .where("order_id", "=", order_id)
      .executeTakeFirstOrThrow();
    expect(["processing", "complete"]).toContain(order.status);
  });
});
