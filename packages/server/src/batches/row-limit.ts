import { ORDER_BATCH_ROWS_MAX } from "@lotline/contract/limits";
import { DomainError } from "../errors.js";

export { ORDER_BATCH_ROWS_MAX };

/** A batch with more rows than the limit: refused whole, nothing kept. */
export class BatchTooLargeError extends DomainError {
  constructor(readonly limit: number) {
    super(
      "batch_too_large",
      `a batch holds at most ${limit.toLocaleString("en-US")} rows; send the rest as another batch`,
    );
  }
}
