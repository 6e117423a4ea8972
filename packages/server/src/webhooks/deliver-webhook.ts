import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { BlockedAddressError } from "./blocked-address-error.js";
import { HostLookupError } from "./host-lookup-error.js";
import { parseRetryAfter } from "./parse-retry-after.js";
import { receiverAgent } from "./receiver-agents.js";
import { type HostLookup, resolveSafeAddress } from "./resolve-safe-address.js";

/** One delivery attempt to make. */
export interface WebhookDelivery {
  /** The callback URL, already admitted by `callbackUrlAllowed`. */
  url: string;
  /** Usually `webhookHeaders(...)`; `content-length` is added. */
  headers: Readonly<Record<string, string>>;
  body: string;
  /** LOTLINE_WEBHOOK_ALLOW_HOSTS (see `resolveSafeAddress`). */
  allowHosts: readonly string[];
  /** The whole attempt, from resolving the host to the response's status and headers. */
  timeoutMs?: number;
  /** Bytes of the response body kept as `responseExcerpt`; the rest is not read. */
  maxResponseBytes?: number;
  lookup?: HostLookup;
}

/**
 * What one attempt came to, everything an attempt log needs. `outcome`: `delivered` (done), `retry` (try again
 * later, after `retryAfterMs` at least when given) or `stop` (do not try this event again).
 */
export interface DeliveryResult {
  outcome: "delivered" | "retry" | "stop";
  statusCode?: number;
  durationMs: number;
  /** `<code>: <detail>` when the attempt failed without a status, or on a redirect. */
  error?: string;
  /** The start of the response body (at most `maxResponseBytes` bytes, UTF-8 decoded). */
  responseExcerpt?: string;
  /** From `Retry-After` on a 429 or 503, capped at 24 hours. */
  retryAfterMs?: number;
  /** The IP address connected to. */
  address?: string;
}

/**
 * Makes one webhook attempt: resolves the URL's host and checks every address ({@link resolveSafeAddress}),
 * then POSTs once to exactly the checked address (a pinned `lookup`, so `Host` and TLS SNI and certificate
 * checks keep the host name) with a fresh connection. Redirects are not followed. Never throws.
 *
 * | result of the attempt                         | outcome     |
 * |-----------------------------------------------|-------------|
 * | 2xx                                           | `delivered` |
 * | 410 Gone                                      | `stop`      |
 * | 429, 503                                      | `retry`, `retryAfterMs` from `Retry-After` |
 * | 3xx (not followed; `redirect_not_followed`)   | `retry`     |
 * | any other status                              | `retry`     |
 * | `timeout` (nothing by `timeoutMs`), `network` error, `dns_failed` | `retry` |
 * | `blocked_address`, `invalid_url`              | `stop`      |
 *
 * Once the status line has arrived the status decides, even if the body then stalls past the timeout or is
 * cut off: the excerpt is whatever came.
 */
export async function deliverWebhook(delivery: WebhookDelivery): Promise<DeliveryResult> {
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  const { timeoutMs = 10_000, maxResponseBytes = 4096 } = delivery;
  const url = parseUrl(delivery.url);
  if (typeof url === "string") return { outcome: "stop", durationMs: duration(), error: `invalid_url: ${url}` };

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  let address: string | undefined;
  try {
    address = await untilAborted(
      resolveSafeAddress(url.hostname, delivery.allowHosts, delivery.lookup),
      timeout.signal,
    );
    const response = await post(url, address, delivery, maxResponseBytes, timeout.signal);
    return { ...classify(response), durationMs: duration(), address };
  } catch (error) {
    const failure = { durationMs: duration(), ...(address === undefined ? {} : { address }) };
    if (error instanceof BlockedAddressError)
      return { outcome: "stop", ...failure, error: `${error.code}: ${error.message}` };
    if (timeout.signal.aborted)
      return { outcome: "retry", ...failure, error: `timeout: no response within ${timeoutMs} ms` };
    if (error instanceof HostLookupError)
      return { outcome: "retry", ...failure, error: `${error.code}: ${error.message}` };
    return { outcome: "retry", ...failure, error: `network: ${explain(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

interface Answer {
  statusCode: number;
  retryAfter: string | undefined;
  location: string | undefined;
  excerpt: string;
}

function classify(response: Answer): Omit<DeliveryResult, "durationMs"> {
  const { statusCode, excerpt: responseExcerpt } = response;
  const seen = { statusCode, responseExcerpt };
  if (statusCode >= 200 && statusCode < 300) return { outcome: "delivered", ...seen };
  if (statusCode === 410) return { outcome: "stop", ...seen };
  if (statusCode === 429 || statusCode === 503) {
    const retryAfterMs = parseRetryAfter(response.retryAfter, Date.now());
    return { outcome: "retry", ...seen, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  if (statusCode >= 300 && statusCode < 400) {
    const target = (response.location ?? "no Location").slice(0, 200);
    return { outcome: "retry", ...seen, error: `redirect_not_followed: ${statusCode} to ${target}` };
  }
  return { outcome: "retry", ...seen };
}

function parseUrl(input: string): URL | string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return "not an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `${url.protocol} is not http or https`;
  if (url.username || url.password) return "a callback URL carries no credentials";
  return url;
}

/**
 * POSTs the body to `address` over a kept-alive connection (see `receiverAgent`), resolving at the response's
 * status with at most `maxBytes` of its body. A kept connection the receiver closed just before we reused it fails
 * before any answer; that one case is tried again at once on a new connection.
 */
async function post(url: URL, address: string, delivery: WebhookDelivery, maxBytes: number, signal: AbortSignal) {
  try {
    return await postOnce(url, address, delivery, maxBytes, signal);
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error;
    return postOnce(url, address, delivery, maxBytes, signal);
  }
}

class StaleConnectionError extends Error {}

function postOnce(url: URL, address: string, delivery: WebhookDelivery, maxBytes: number, signal: AbortSignal) {
  return new Promise<Answer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const body = Buffer.from(delivery.body, "utf8");
    const options: https.RequestOptions = {
      method: "POST",
      headers: { ...delivery.headers, "content-length": String(body.length) },
      lookup: pinned(address),
      agent: receiverAgent(url.protocol === "https:" ? "https:" : "http:", address),
      signal,
    };
    let finish: (() => void) | undefined;
    const request = client.request(url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const settle = () =>
        resolve({
          statusCode: response.statusCode ?? 0,
          retryAfter: response.headers["retry-after"],
          location: response.headers.location,
          excerpt: Buffer.concat(chunks).toString("utf8"),
        });
      finish = settle;
      response.on("data", (chunk: Buffer) => {
        const kept = chunk.subarray(0, maxBytes - size);
        chunks.push(kept);
        size += kept.length;
        if (size >= maxBytes) {
          settle();
          response.destroy();
        }
      });
      response.on("end", settle);
      response.on("error", settle);
      response.on("close", settle);
    });
    // Once the status is in, a timeout or a reset mid-body settles with what came rather than failing.
    request.on("error", (error) => {
      if (finish) finish();
      else reject(request.reusedSocket && !signal.aborted ? new StaleConnectionError(explain(error)) : error);
    });
    request.end(body);
  });
}

/** A `lookup` that answers every query with the address already checked. */
function pinned(address: string): LookupFunction {
  const family = isIP(address);
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
}
