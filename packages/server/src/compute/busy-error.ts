import { DomainError } from "../errors.js";

/** The service has too much work of this kind in hand right now; the same request may succeed shortly (503). */
export class BusyError extends DomainError {
  /** Seconds after which a retry is sensible. */
  readonly retryAfterSeconds: number = 1;
}
