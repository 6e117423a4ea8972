import { LotlineError } from "./lotline-error.js";

/**
 * The token endpoint refused to issue a data API token, answered something unreadable, or could not be reached.
 *
 * `code` is the OAuth `error` (RFC 6749 §5.2, e.g. `invalid_client`, `invalid_request`) when the server sent one,
 * `token_endpoint_unreachable` when the connection failed (twice: it is tried once more), `token_endpoint_timeout`
 * when no answer came within `timeoutMs`, and `invalid_token_response` when the answer was not a token.
 *
 * @example
 * ```ts
 * try {
 *   await tokens.getToken();
 * } catch (error) {
 *   if (error instanceof TokenRequestError && error.code === "invalid_client") alertOps("rotate the client secret");
 *   throw error;
 * }
 * ```
 */
export class TokenRequestError extends LotlineError {
  /** The HTTP status of the answer; undefined when there was no answer. */
  readonly status: number | undefined;
  /** The OAuth `error_description`, when the server gave one. */
  readonly errorDescription: string | undefined;

  constructor(
    code: string,
    message: string,
    details: { status?: number | undefined; errorDescription?: string | undefined } = {},
    options?: ErrorOptions,
  ) {
    super(code, message, options);
    this.status = details.status;
    this.errorDescription = details.errorDescription;
  }
}
