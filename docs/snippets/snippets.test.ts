import { readdir, readFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { WebhookEvent } from "@lotline/host-sdk/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../packages/host-sdk/src/server/test-server.js";
import { iframeTokenHandler } from "./iframe-token-endpoint.js";
import { orderProperty } from "./place-order.js";
import type { Env } from "./settings.js";
import { connectLotline } from "./token-provider.js";
import { webhookHandler } from "./verify-webhook-endpoint.js";

/**
 * The integration guide's code blocks are these files, and these files run against a real listening Lotline
 * (demo neighbourhood, background workers, webhooks allowed to 127.0.0.1). The browser snippet, mount-page.ts,
 * is type-checked only (`tsc -p docs`); the SDK's browser tests run `mount` itself.
 */

const SNIPPETS = new URL("./", import.meta.url);
const GUIDE = new URL("../integration-guide.md", import.meta.url);

async function snippetFiles(): Promise<Map<string, string>> {
  const names = (await readdir(SNIPPETS)).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
  const files = new Map<string, string>();
  for (const name of names.sort()) files.set(name, await readFile(new URL(name, SNIPPETS), "utf8"));
  return files;
}

/** The contents of the guide's fenced blocks of one language. */
function fencedBlocks(markdown: string, language: string): string[] {
  const blocks: string[] = [];
  const fence = /^```([\w-]*)\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(fence)) if (match[1] === language) blocks.push(match[2] ?? "");
  return blocks;
}

describe("the integration guide's snippets", () => {
  it("are exactly the guide's TypeScript blocks, each file once and every block a file", async () => {
    const guide = await readFile(GUIDE, "utf8");
    const blocks = fencedBlocks(guide, "ts");
    const files = await snippetFiles();
    expect(files.size).toBeGreaterThanOrEqual(6);
    for (const [name, content] of files) {
      expect(blocks.filter((block) => block === content).length, `${name} appears once, verbatim`).toBe(1);
    }
    const contents = [...files.values()];
    for (const block of blocks) {
      expect(contents, `a ts block of the guide that is no snippet file:\n${block}`).toContain(block);
    }
    expect(fencedBlocks(guide, "typescript")).toEqual([]);
    expect(fencedBlocks(guide, "js")).toEqual([]);
  });
});

interface Listening {
  url: string;
  close(): Promise<void>;
}

async function listen(handler: RequestListener): Promise<Listening> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the server-side snippets against a real listening Lotline", () => {
  let server: TestServer;
  let env: Env;
  let webhooks: Listening;
  const recorded: WebhookEvent[] = [];
  const received: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = await startTestServer({ listen: true, demo: true });
    const { tenant } = server;
    // What the operator hands over, as the guide's reader puts it in the environment.
    env = {
      LOTLINE_URL: server.url,
      LOTLINE_CLIENT_ID: tenant.clientId,
      LOTLINE_CLIENT_SECRET: tenant.clientSecret,
      LOTLINE_AUDIENCE: server.audience,
      LOTLINE_ORG_ID: tenant.orgId,
      LOTLINE_IFRAME_API_KEY: tenant.iframeKey,
      LOTLINE_WEBHOOK_SECRET: tenant.webhookSecret,
    };
    const handler = webhookHandler(env, (event) => {
      recorded.push(event);
    });
    webhooks = await listen((request, response) => {
      received.push(request.headers);
      void handler(request, response);
    });
    await server.addCallbackPrefix(`${webhooks.url}/hooks/`);
  }, 60_000);
  afterAll(async () => {
    await webhooks?.close();
    await server?.close();
  });

  it("token-provider.ts gets a data API token once and reuses it", async () => {
    const { tokens, api } = connectLotline(env);
    const first = await tokens.getToken();
    expect(first.split(".")).toHaveLength(3);
    expect(await tokens.getToken()).toBe(first);
    const me = await api.me();
    expect(JSON.stringify(me)).toContain(server.tenant.orgId);
  });

  it("place-order.ts places an order that completes and reads the property; verify-webhook-endpoint.ts verifies the webhook once", async () => {
    const { api } = connectLotline(env);
    const address = await server.demoAddress(0);
    const property = await orderProperty(api, {
      address,
      externalId: "POL-GUIDE-1",
      callbackUrl: `${webhooks.url}/hooks/orders`,
      requestId: "guide-tx-1",
    });
    expect(property.address?.toUpperCase()).toContain(address.split(",")[0]?.toUpperCase());
    expect(property.buildings.length).toBeGreaterThan(0);
    expect(property.policy).toMatchObject({ external_id: "POL-GUIDE-1" });

    // The same request id with the same order places no second order.
    const again = await api.createOrder(
      { address, external_id: "POL-GUIDE-1", callback_url: `${webhooks.url}/hooks/orders` },
      { idempotencyKey: "guide-tx-1" },
    );
    expect(again.property_id).toBe(property.property_id);

    const event = await until("the order.complete webhook", () => recorded[0]);
    expect(event.type).toBe("order.complete");
    if (event.type !== "order.complete") throw new Error("narrowed above");
    expect(event.data.property_id).toBe(property.property_id);
    const first = await until("the delivery headers", () => received[0]);
    const webhookId = String(first["webhook-id"]);

    // A redelivery carries the same webhook-id: received again, recorded once.
    await api.redeliverWebhook(webhookId);
    await until("the redelivery", () => (received.length >= 2 ? true : undefined));
    await until("the redelivery to be answered", async () => {
      const page = await api.listWebhookDeliveries({ status: "delivered" });
      return JSON.stringify(page).split(webhookId).length > 1 ? true : undefined;
    });
    expect(received[1]?.["webhook-id"]).toBe(webhookId);
    expect(recorded).toHaveLength(1);
  });

  it("verify-webhook-endpoint.ts refuses a tampered body and a missing signature with 400", async () => {
    const headers = await until("a delivery", () => received[0]);
    const signed = {
      "content-type": "application/json",
      "webhook-id": String(headers["webhook-id"]),
      "webhook-timestamp": String(headers["webhook-timestamp"]),
      "webhook-signature": String(headers["webhook-signature"]),
    };
    const forged = JSON.stringify({
      type: "order.complete",
      timestamp: new Date().toISOString(),
      data: { order_id: "ord_forged", property_id: 1, status: "complete" },
    });
    const tampered = await fetch(`${webhooks.url}/hooks/orders`, { method: "POST", headers: signed, body: forged });
    expect(tampered.status).toBe(400);
    const { "webhook-signature": _, ...unsigned } = signed;
    const missing = await fetch(`${webhooks.url}/hooks/orders`, { method: "POST", headers: unsigned, body: forged });
    expect(missing.status).toBe(400);
    expect(recorded).toHaveLength(1);
  });

  it("iframe-token-endpoint.ts answers {token, expiresIn} to a signed-in user and 401 otherwise", async () => {
    const endpoint = await listen(iframeTokenHandler(env, (request) => request.headers.cookie === "session=ok"));
    try {
      const answer = await fetch(`${endpoint.url}/lotline/token`, {
        method: "POST",
        headers: { cookie: "session=ok" },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const body = (await answer.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["expiresIn", "token"]);
      expect(body.expiresIn).toBe(server.iframeTokenTtlSeconds);
      expect(String(body.token).split(".")).toHaveLength(3);
      expect(JSON.stringify(body)).not.toContain(server.tenant.iframeKey);

      const stranger = await fetch(`${endpoint.url}/lotline/token`, { method: "POST" });
      expect(stranger.status).toBe(401);
      const get = await fetch(`${endpoint.url}/lotline/token`, { headers: { cookie: "session=ok" } });
      expect(get.status).toBe(405);
    } finally {
      await endpoint.close();
    }
  });
});
