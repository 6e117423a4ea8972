import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One request the receiver took. */
export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real webhook receiver on loopback, as an insurer's core system would run one. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/hooks/`: register it as a callback prefix and append a path. */
  url: string;
  /** Every request, in arrival order. */
  received: ReceivedHook[];
  close(): Promise<void>;
}

/**
 * Starts a receiver that keeps every request and answers 204, or 500 "receiver is down" for a path containing
 * `/fail`, so that a test can make deliveries fail.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      if (request.url?.includes("/fail")) response.writeHead(500).end("receiver is down");
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The body of a received webhook, its Standard Webhooks signature checked with `secret` (throws if it fails). */
export function verifiedHook<T = { type: string; data: unknown }>(secret: string, hook: ReceivedHook | undefined): T {
  return new Webhook(secret).verify(hook?.body ?? "", {
    "webhook-id": String(hook?.headers["webhook-id"]),
    "webhook-timestamp": String(hook?.headers["webhook-timestamp"]),
    "webhook-signature": String(hook?.headers["webhook-signature"]),
  }) as T;
}
