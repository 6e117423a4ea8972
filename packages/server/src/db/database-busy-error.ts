import { BusyError } from "../compute/busy-error.js";

/**
 * SQLite's one write lock stayed with another connection for as long as a statement may wait for it: most likely
 * an import in another process, which holds it for its whole transaction. A 503: the same request succeeds once
 * that writer is done, and nothing of it was written.
 */
export class DatabaseBusyError extends BusyError {
  override readonly retryAfterSeconds = 5;

  constructor(cause: unknown) {
    super("database_busy", "another writer (an import?) holds the database; nothing was written, retry shortly");
    this.cause = cause;
  }
}
