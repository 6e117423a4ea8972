import { LotlineError } from "./lotline-error.js";

/**
 * The iframe sign-in endpoint did not give a usable JWT. `code` is `invalid_credentials` (401: wrong organization
 * id or iframe API key), `signin_unreachable` (the connection failed), `signin_timeout` (no answer within
 * `timeoutMs`), `signin_failed` (any other status) or `invalid_signin_response`.
 *
 * @example
 * ```ts
 * try {
 *   return await fetchIframeToken({ iframeAuthUrl, orgId, iframeApiKey });
 * } catch (error) {
 *   if (error instanceof IframeTokenError && error.code === "invalid_credentials") alertOps("iframe key revoked?");
 *   throw error;
 * }
 * ```
 */
export class IframeTokenError extends LotlineError {
  /** The HTTP status of the answer; undefined when there was no answer. */
  readonly status: number | undefined;

  constructor(code: string, message: string, status?: number, options?: ErrorOptions) {
    super(code, message, options);
    this.status = status;
  }
}
