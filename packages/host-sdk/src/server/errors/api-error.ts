import { LotlineError } from "./lotline-error.js";

/**
 * The data API answered with an error: the server's `application/problem+json` body (RFC 9457) as fields.
 * `code` is the problem's stable `code` (e.g. `not_found`, `invalid_custom_fields`), or `http_<status>` when the
 * answer was not a problem document (a proxy's error page, say).
 *
 * @example
 * ```ts
 * try {
 *   await api.getProperty(propertyId);
 * } catch (error) {
 *   if (error instanceof ApiError && error.status === 404) return undefined;
 *   throw error;
 * }
 * ```
 */
export class ApiError extends LotlineError {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The problem's `detail`: what went wrong with this request, in words. */
  readonly detail: string | undefined;
  /** The problem's `title`. */
  readonly title: string | undefined;
  /** The whole parsed body, for fields beyond the standard ones; undefined when it was not JSON. */
  readonly body: unknown;

  constructor(
    status: number,
    problem: { code?: string | undefined; title?: string | undefined; detail?: string | undefined; body?: unknown },
  ) {
    const code = problem.code ?? `http_${status}`;
    super(code, `data API answered ${status} ${code}${problem.detail ? `: ${problem.detail}` : ""}`);
    this.status = status;
    this.detail = problem.detail;
    this.title = problem.title;
    this.body = problem.body;
  }
}
