/**
 * A failed page API call: the problem's stable `code` (`bbox_too_large`, `session_ended`, …, or `network_error`
 * when the service could not be reached) and, as the message, its `detail` in words a user can read.
 */
export class ApiError extends Error {
  override name = "ApiError";

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
