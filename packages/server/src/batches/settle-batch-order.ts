import type { Transaction } from "kysely";
import type { Schema } from "../db/schema.js";
import { completeBatchIfSettled } from "./complete-batch.js";

/**
 * Counts a batch's order as settled, in the transaction that settles it: the batch's `pending` drops by one (the
 * row lock makes orders settling at once take turns), and the order that brings it to zero completes the batch.
 */
export async function settleBatchOrder(
  trx: Transaction<Schema>,
  batchId: string,
  status: "complete" | "failed",
): Promise<void> {
  await trx
    .updateTable("order_batches")
    .set((eb) => ({
      pending: eb("pending", "-", 1),
      ...(status === "failed" ? { failed: eb("failed", "+", 1) } : {}),
    }))
    .where("batch_id", "=", batchId)
    .where("status", "=", "processing")
    .execute();
  await completeBatchIfSettled(trx, batchId);
}
