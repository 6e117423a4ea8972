import type { IncomingMessage, ServerResponse } from "node:http";
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "@lotline/host-sdk/server";
import { type Env, setting } from "./settings.js";

/**
 * The endpoint behind your callback URL. `record` must be fast (store the event, act on it in a job); it is
 * called once per event, because every delivery of an event carries the same `webhook-id`.
 */
export function webhookHandler(env: Env, record: (event: WebhookEvent) => void | Promise<void>) {
  const secret = setting(env, "LOTLINE_WEBHOOK_SECRET");
  const seen = new Set<string>(); // in production: a table whose primary key is the webhook-id
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      // The raw bytes: the signature covers them, not a re-serialization of parsed JSON.
      const event = verifyWebhook({ secret, headers: request.headers, body: Buffer.concat(chunks) });
      const webhookId = String(request.headers["webhook-id"]);
      if (!seen.has(webhookId)) {
        await record(event);
        seen.add(webhookId);
      }
      response.writeHead(204).end();
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        console.error(`refused a webhook: ${error.code}`);
        response.writeHead(400).end();
      } else {
        console.error("webhook not recorded; Lotline will deliver it again", error);
        response.writeHead(500).end();
      }
    }
  };
}
