import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookVerificationError } from "../errors/webhook-verification-error.js";
import type { WebhookEvent } from "./webhook-event.js";

/** Request headers as Node (`IncomingHttpHeaders`), Fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** The organization's webhook secret, `whsec_` followed by base64. */
  secret: string;
  /** The request's headers: `webhook-id`, `webhook-timestamp`, `webhook-signature` are read. */
  headers: WebhookHeaders;
  /**
   * The raw body exactly as received, a string or a Buffer/Uint8Array: the signature covers these bytes, not a
   * re-serialization of parsed JSON. Anything else (the object `express.json()` leaves in `request.body`, say)
   * throws `raw_body_required`.
   */
  body: string | Uint8Array;
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The wall clock in epoch milliseconds. Default `Date.now()`. */
  now?: () => number;
}

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * Verifies a webhook delivery as the Standard Webhooks specification tells a receiver to, and returns its parsed
 * body typed by event type. One of the space-separated `v1,<base64>` entries of `webhook-signature` must be the
 * HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}` keyed by the base64-decoded part of the secret after
 * `whsec_` (compared in constant time), and `webhook-timestamp` must be within `toleranceSeconds` of now, so a
 * captured delivery cannot be replayed later. The same event keeps its `webhook-id` across retries: use it to
 * ignore duplicates. Throws {@link WebhookVerificationError}.
 *
 * @example An Express route (the raw body is needed, not parsed JSON).
 * ```ts
 * app.post("/lotline/webhooks", express.raw({ type: "application/json" }), (request, response) => {
 *   const event = verifyWebhook({ secret: process.env.LOTLINE_WEBHOOK_SECRET, headers: request.headers, body: request.body });
 *   if (event.type === "order.complete") queueRefresh(event.data.property_id);
 *   response.sendStatus(204);
 * });
 * ```
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const key = SECRET.exec(options.secret)?.[1];
  if (key === undefined) throw new WebhookVerificationError("invalid_secret", "the secret is not whsec_ and base64");
  checkRawBody(options.body);
  const id = header(options.headers, "webhook-id");
  const timestampText = header(options.headers, "webhook-timestamp");
  const signatures = header(options.headers, "webhook-signature");
  if (!id || !timestampText || !signatures) {
    throw new WebhookVerificationError(
      "missing_headers",
      "webhook-id, webhook-timestamp or webhook-signature is missing",
    );
  }
  checkTimestamp(timestampText, options.toleranceSeconds ?? 300, (options.now ?? Date.now)());

  const body = typeof options.body === "string" ? Buffer.from(options.body, "utf8") : Buffer.from(options.body);
  const expected = createHmac("sha256", Buffer.from(key, "base64"))
    .update(`${id}.${timestampText}.`)
    .update(body)
    .digest();
  if (!signatures.split(" ").some((entry) => matches(entry, expected))) {
    throw new WebhookVerificationError("bad_signature", "no webhook-signature entry matches the body");
  }
  return parseEvent(body);
}

/**
 * The usual mistake is a body parser that ran first (`express.json()`, a framework's JSON body): the parsed object
 * can never verify, and without this check it would fail as a TypeError, which a handler answers with a 500 that
 * the service retries for a day. Refusing it as a verification error says what to change instead.
 */
function checkRawBody(body: unknown): void {
  if (typeof body === "string" || body instanceof Uint8Array) return;
  throw new WebhookVerificationError(
    "raw_body_required",
    "verifyWebhook needs the raw body exactly as received (a string, or a Buffer or Uint8Array), " +
      `not ${kindOf(body)}: the signature covers the bytes as sent, which parsed JSON cannot reproduce. With ` +
      'Express, give this route express.raw({ type: "application/json" }) instead of express.json() and pass ' +
      "request.body (then a Buffer).",
  );
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  // Node lower-cases header names; a hand-built object may not, and header names are case-insensitive.
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

function checkTimestamp(text: string, toleranceSeconds: number, nowMs: number): void {
  if (!/^\d{1,12}$/.test(text)) {
    throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not epoch seconds");
  }
  const age = Math.floor(nowMs / 1000) - Number(text);
  if (age > toleranceSeconds) throw new WebhookVerificationError("stale_timestamp", "webhook-timestamp is too old");
  if (age < -toleranceSeconds) {
    throw new WebhookVerificationError("future_timestamp", "webhook-timestamp is too far in the future");
  }
}

/** Whether one `v1,<base64>` entry is `expected`; other versions never match. */
function matches(entry: string, expected: Buffer): boolean {
  const [version, encoded] = entry.split(",", 2);
  if (version !== "v1" || !encoded) return false;
  const given = Buffer.from(encoded, "base64");
  // timingSafeEqual needs equal lengths; the length of an HMAC-SHA256 is public anyway.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function parseEvent(body: Buffer): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(body.toString("utf8"));
  } catch (cause) {
    throw new WebhookVerificationError("invalid_body", "the signed body is not JSON", { cause });
  }
  const { type, timestamp, data } = (event ?? {}) as Record<string, unknown>;
  if (typeof type !== "string" || typeof timestamp !== "string" || typeof data !== "object" || data === null) {
    throw new WebhookVerificationError("invalid_body", "the signed body is not {type, timestamp, data}");
  }
  // Signed by the service, so its shape is the service's; unknown future types pass through as received.
  return event as WebhookEvent;
}
