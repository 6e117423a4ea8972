import type { ExpressionBuilder } from "kysely";
import type { Schema } from "../db/schema.js";

/**
 * Orders a client may see: not those of a batch still being taken in, which has no jobs yet and may still be
 * discarded whole (see `batches/intake-batch.ts`).
 */
export function visibleOrder(eb: ExpressionBuilder<Schema, "orders">) {
  return eb.or([
    eb("orders.batch_id", "is", null),
    eb(
      "orders.batch_id",
      "not in",
      eb.selectFrom("order_batches").select("order_batches.batch_id").where("order_batches.status", "=", "intake"),
    ),
  ]);
}
