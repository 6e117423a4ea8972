import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, createApiClient } from "./api/api-client.js";
import { ApiError } from "./errors/api-error.js";
import { IframeTokenError } from "./errors/iframe-token-error.js";
import { fetchIframeToken } from "./iframe/fetch-iframe-token.js";
import { startTestServer, type TestServer } from "./test-server.js";
import { until } from "./test-until.js";
import { createTokenProvider } from "./tokens/token-provider.js";
import { verifyWebhook } from "./webhooks/verify-webhook.js";

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A loopback webhook receiver that keeps every delivery, raw. */
async function startReceiver(): Promise<{ url: string; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("the server SDK against the real server", () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let api: ApiClient;
  const tokenRequests: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ listen: true, demo: true, settings: { LOTLINE_IFRAME_TOKEN_TTL: "900" } });
    receiver = await startReceiver();
    await server.addCallbackPrefix(receiver.url);
    const countingFetch: typeof fetch = (input, init) => {
      if (String(input).endsWith("/oauth/token")) tokenRequests.push(String(input));
      return fetch(input, init);
    };
    const tokens = createTokenProvider({
      tokenUrl: server.url,
      clientId: server.tenant.clientId,
      clientSecret: server.tenant.clientSecret,
      audience: server.audience,
      fetch: countingFetch,
    });
    api = createApiClient({ baseUrl: server.url, tokens });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  it("asks the token endpoint once for many concurrent calls", async () => {
    const [me, matrices, fields, orders] = await Promise.all([
      api.me(),
      api.listProductMatrices(),
      api.listCustomFields(),
      api.listOrders({ limit: 5 }),
      ...Array.from({ length: 10 }, () => api.me()),
    ]);
    expect(JSON.stringify(me)).toContain(server.tenant.orgId);
    expect(Array.isArray(matrices.data)).toBe(true);
    expect(Array.isArray(fields.data)).toBe(true);
    expect(orders.data).toEqual([]);
    expect(tokenRequests).toEqual([`${server.url}/oauth/token`]);
  });

  it("places an order by address, sees it complete, reads the property and verifies the signed webhook", async () => {
    const address = await server.demoAddress(0);
    const candidates = await api.searchAddresses({ q: address.slice(0, 12), limit: 5 });
    expect(JSON.stringify(candidates).length).toBeGreaterThan(2);

    const placed = await api.createOrder({ address, external_id: "POL-SDK-1", callback_url: `${receiver.url}hook` });
    expect(placed.status).toBe("processing");
    const order = await until("the order to complete", async () => {
      const current = await api.getOrder(placed.order_id);
      return current.status === "processing" ? undefined : current;
    });
    expect(order).toMatchObject({ order_id: placed.order_id, status: "complete", property_id: placed.property_id });

    const property = await api.getProperty(placed.property_id);
    expect(property.property_id).toBe(placed.property_id);
    expect(property.address?.toUpperCase()).toContain(address.split(",")[0]?.toUpperCase());
    expect(property.buildings.length).toBeGreaterThan(0);
    const byExternalId = await api.listProperties({ external_id: "POL-SDK-1" });
    expect(byExternalId.data.map((record) => record.property_id)).toEqual([placed.property_id]);

    const delivery = await until("the webhook", async () => receiver.deliveries[0]);
    const event = verifyWebhook({
      secret: server.tenant.webhookSecret,
      headers: delivery.headers,
      body: delivery.body,
    });
    expect(event.type).toBe("order.complete");
    if (event.type === "order.complete") {
      expect(event.data).toMatchObject({ order_id: placed.order_id, property_id: placed.property_id });
    }
    expect(() =>
      verifyWebhook({ secret: server.tenant.webhookSecret, headers: delivery.headers, body: `${delivery.body} ` }),
    ).toThrow(expect.objectContaining({ code: "bad_signature" }));

    const logged = await until("the delivery log", async () => {
      const page = await api.listWebhookDeliveries({ status: "delivered" });
      return page.data.length > 0 ? page : undefined;
    });
    expect(JSON.stringify(logged)).toContain(String(delivery.headers["webhook-id"]));
    expect(tokenRequests).toHaveLength(1);
  });

  it("places an order once for one Idempotency-Key", async () => {
    const address = await server.demoAddress(1);
    const first = await api.createOrder({ address, external_id: "POL-SDK-2" }, { idempotencyKey: "policy-tx-2" });
    const again = await api.createOrder({ address, external_id: "POL-SDK-2" }, { idempotencyKey: "policy-tx-2" });
    expect(again.order_id).toBe(first.order_id);
  });

  it("turns the server's problem+json into an ApiError", async () => {
    const error = await api.getProperty(987_654_321).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404 });
    expect((error as ApiError).code).toMatch(/^[a-z_]+$/);
  });

  it("obtains an iframe JWT whose lifetime is the server's TTL, and names refused credentials", async () => {
    const { tenant } = server;
    const iframe = await fetchIframeToken({
      iframeAuthUrl: server.url,
      orgId: tenant.orgId,
      iframeApiKey: tenant.iframeKey,
    });
    expect(iframe.expiresIn).toBe(900);
    expect(iframe.expiresIn).toBe(server.iframeTokenTtlSeconds);
    expect(Date.parse(iframe.expires)).toBeGreaterThan(Date.now());
    const refused = await fetchIframeToken({ iframeAuthUrl: server.url, orgId: tenant.orgId, iframeApiKey: "wrong" })
      .then(() => undefined)
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(IframeTokenError);
    expect(refused).toMatchObject({ code: "invalid_credentials", status: 401 });
  });
});
