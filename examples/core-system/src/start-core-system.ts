import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { fetchIframeToken, IframeTokenError, verifyWebhook, WebhookVerificationError } from "@lotline/host-sdk/server";
import { hostHeaders } from "./host-headers.js";
import { loadSdkBundle } from "./sdk-bundle.js";
import { loadStaticFiles, type StaticFile } from "./static-files.js";
import { WebhookInbox } from "./webhook-inbox.js";

export interface CoreSystemOptions {
  port: number;
  /** The interface to listen on; 127.0.0.1 unless given. */
  host?: string;
  /** Lotline's public URL (its origin is what the host page frames and accepts messages from). */
  lotlineUrl: string;
  orgId: string;
  /** The iframe API key: used server side only, to sign in for iframe tokens. */
  iframeApiKey: string;
  /** The organization's `whsec_` secret, to verify the webhooks Lotline sends to `/webhooks`. */
  webhookSecret: string;
}

export interface RunningCoreSystem {
  /** Where the host page is served, e.g. `http://127.0.0.1:8081`. */
  url: string;
  close(): Promise<void>;
}

const PUBLIC_FOLDER = fileURLToPath(new URL("../public/", import.meta.url));
const MAX_WEBHOOK_BYTES = 1024 * 1024;

/**
 * A stand-in insurer core system on its own origin, built on `node:http` and `@lotline/host-sdk`: the host page
 * that frames Lotline's pages (`GET /` and its files, with the SDK's browser bundle at `/sdk/lotline-host-sdk.js`),
 * the token endpoint that signs in for iframe tokens with the SDK's `fetchIframeToken` (`POST /token`), and a
 * webhook receiver that checks Standard Webhooks signatures with the SDK's `verifyWebhook` (`POST /webhooks`,
 * listed at `GET /webhooks/received`).
 */
export async function startCoreSystem(options: CoreSystemOptions): Promise<RunningCoreSystem> {
  const lotlineUrl = options.lotlineUrl.replace(/\/+$/, "");
  const lotlineOrigin = new URL(lotlineUrl).origin;
  const files: Map<string, StaticFile> = new Map([...loadStaticFiles(PUBLIC_FOLDER), ...loadSdkBundle()]);
  const inbox = new WebhookInbox();
  const headers = hostHeaders(lotlineOrigin);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? "/", "http://core.invalid").pathname;
    const method = request.method ?? "GET";
    if (method === "POST" && path === "/token") return answerToken(response);
    if (method === "POST" && (path === "/webhooks" || path.startsWith("/webhooks/"))) {
      return receiveWebhook(request, response);
    }
    if (method !== "GET" && method !== "HEAD") return send(response, 405, json({ error: "method_not_allowed" }));
    if (path === "/webhooks/received") return send(response, 200, json(inbox.list()));
    if (path === "/config.json") {
      return send(response, 200, json({ lotline_url: lotlineUrl, lotline_origin: lotlineOrigin }));
    }
    const file = files.get(path === "/" ? "/index.html" : path);
    if (file) return send(response, 200, { body: file.body, contentType: file.contentType });
    return send(response, 404, json({ error: "not_found" }));
  };

  /**
   * The endpoint the browser's `fetchToken` calls. A real core system puts it behind its own sign-in: whoever can
   * call it gets a Lotline session for the organization.
   */
  async function answerToken(response: ServerResponse): Promise<void> {
    try {
      const { token, expires, expiresIn } = await fetchIframeToken({
        iframeAuthUrl: lotlineUrl,
        orgId: options.orgId,
        iframeApiKey: options.iframeApiKey,
      });
      send(response, 200, json({ token, expires, expires_in: expiresIn }));
    } catch (error) {
      if (!(error instanceof IframeTokenError)) throw error;
      send(response, 502, json({ error: "signin_failed", message: error.message, status: error.status ?? null }));
    }
  }

  async function receiveWebhook(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request, MAX_WEBHOOK_BYTES);
    if (body === undefined) return send(response, 413, json({ error: "too_large" }));
    try {
      const event = verifyWebhook({ secret: options.webhookSecret, headers: request.headers, body });
      // Verified: the webhook-id is the sender's, and the same event keeps it across retries.
      inbox.add(String(request.headers["webhook-id"]), event);
      send(response, 204);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      send(response, 401, json({ error: "invalid_signature", message: error.message }));
    }
  }

  function send(response: ServerResponse, status: number, content?: { body: Buffer | string; contentType: string }) {
    response.writeHead(status, {
      ...headers,
      ...(content ? { "content-type": content.contentType } : {}),
    });
    response.end(content && response.req.method !== "HEAD" ? content.body : undefined);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, json({ error: "internal_error" }));
      else response.destroy();
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function json(value: unknown): { body: string; contentType: string } {
  return { body: JSON.stringify(value), contentType: "application/json; charset=utf-8" };
}

/**
 * The body as UTF-8 text, or undefined when it passes `limit` bytes. A body too large is still read to its end
 * (and dropped) so that the answer reaches the sender instead of a reset connection.
 */
async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? undefined : Buffer.concat(chunks).toString("utf8");
}
