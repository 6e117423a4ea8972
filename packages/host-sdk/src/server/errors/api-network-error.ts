import { LotlineError } from "./lotline-error.js";

/** Why a data API request got no answer. */
export type ApiNetworkCode = "api_timeout" | "api_unreachable";

/**
 * A data API request got no HTTP answer, after the retries that were safe (see {@link createApiClient}). `code` is
 * `api_timeout` when the last attempt ran past `timeoutMs`, `api_unreachable` when the connection failed (refused,
 * reset, DNS); `cause` is the underlying error. A non-idempotent call (`redeliverWebhook`) may or may not have
 * reached the server.
 *
 * @example
 * ```ts
 * try {
 *   await api.getOrder(orderId);
 * } catch (error) {
 *   if (error instanceof ApiNetworkError) return scheduleRetry(orderId); // the data API was not reached in time
 *   throw error;
 * }
 * ```
 */
export class ApiNetworkError extends LotlineError {
  declare readonly code: ApiNetworkCode;

  constructor(code: ApiNetworkCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
  }
}
