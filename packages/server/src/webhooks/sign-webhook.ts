import { createHmac } from "node:crypto";
import { InvalidInputError } from "../errors.js";

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * The Standard Webhooks `webhook-signature` value: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`,
 * keyed by the bytes of the base64 text after `whsec_`. `timestamp` is in seconds, the `webhook-timestamp` sent.
 * Throws {@link InvalidInputError} `invalid_webhook_secret` for a secret not of that form.
 *
 * @example
 * signWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')
 * // "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = SECRET.exec(secret)?.[1];
  if (key === undefined) throw new InvalidInputError("invalid_webhook_secret", "expected a whsec_ secret in base64");
  if (!Number.isSafeInteger(timestamp)) throw new RangeError(`expected whole seconds, got ${timestamp}`);
  const mac = createHmac("sha256", Buffer.from(key, "base64")).update(`${id}.${timestamp}.${body}`, "utf8");
  return `v1,${mac.digest("base64")}`;
}
