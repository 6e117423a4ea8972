import { LotlineError } from "./lotline-error.js";

/** Every reason {@link verifyWebhook} refuses a delivery. */
export type WebhookVerificationCode =
  | "invalid_secret"
  | "raw_body_required"
  | "missing_headers"
  | "invalid_timestamp"
  | "stale_timestamp"
  | "future_timestamp"
  | "bad_signature"
  | "invalid_body";

/**
 * A webhook delivery failed verification: answer it with a 4xx and do not act on it. The `code` says why, for
 * the log; do not echo it to the sender in detail.
 *
 * @example
 * ```ts
 * try {
 *   const event = verifyWebhook({ secret, headers: request.headers, body: rawBody });
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) return reply.code(400).send();
 *   throw error;
 * }
 * ```
 */
export class WebhookVerificationError extends LotlineError {
  declare readonly code: WebhookVerificationCode;

  constructor(code: WebhookVerificationCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
  }
}
