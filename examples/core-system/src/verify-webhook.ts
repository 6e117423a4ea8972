import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a `webhook-timestamp` may be from this server's clock, either way, before a delivery is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/** The three Standard Webhooks headers, as received (any may be missing). */
export interface WebhookHeaders {
  "webhook-id"?: string | undefined;
  "webhook-timestamp"?: string | undefined;
  "webhook-signature"?: string | undefined;
}

/** A delivery whose signature checked out: its id, its timestamp (epoch seconds) and its parsed body. */
export interface VerifiedWebhook {
  id: string;
  timestamp: number;
  payload: unknown;
}

/** Why a delivery was refused, in words for the log. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * Checks a webhook delivery the way the Standard Webhooks specification says a receiver must: the timestamp is
 * within {@link WEBHOOK_TOLERANCE_SECONDS} of now (so a captured delivery cannot be replayed later), and one of
 * the space-separated `v1,<base64>` signatures is the HMAC-SHA256 of `id.timestamp.body`, keyed with the bytes
 * of the base64 text after `whsec_`, compared in constant time. Throws {@link WebhookVerificationError}.
 *
 * @param body the raw body exactly as received: the signature covers its bytes, not a re-serialization.
 * @param nowSeconds this server's clock, in epoch seconds (a parameter so tests can move it).
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): VerifiedWebhook {
  const key = SECRET.exec(secret)?.[1];
  if (key === undefined) throw new WebhookVerificationError("the webhook secret is not a whsec_ base64 secret");
  const id = headers["webhook-id"];
  const timestampText = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestampText || !signatures) throw new WebhookVerificationError("a webhook-* header is missing");
  if (!/^\d{1,12}$/.test(timestampText)) throw new WebhookVerificationError("webhook-timestamp is not epoch seconds");
  const timestamp = Number(timestampText);
  if (Math.abs(nowSeconds - timestamp) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookVerificationError("webhook-timestamp is too far from now");
  }

  const expected = createHmac("sha256", Buffer.from(key, "base64")).update(`${id}.${timestampText}.${body}`).digest();
  if (!signatures.split(" ").some((signature) => matches(signature, expected))) {
    throw new WebhookVerificationError("no webhook-signature matches");
  }
  try {
    return { id, timestamp, payload: JSON.parse(body) };
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
}

/** Whether one `v1,<base64>` entry is `expected`; other versions never match. */
function matches(signature: string, expected: Buffer): boolean {
  const [version, encoded] = signature.split(",", 2);
  if (version !== "v1" || !encoded) return false;
  const given = Buffer.from(encoded, "base64");
  // timingSafeEqual needs equal lengths; the length of an HMAC-SHA256 is public anyway.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
