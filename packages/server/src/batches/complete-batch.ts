import type { Transaction } from "kysely";
import type { Schema } from "../db/schema.js";
import { recordWebhookEvent } from "../webhooks/webhook-events.js";

/**
 * Marks a processing batch with no order left pending `complete` and, when it has a callback URL, records its one
 * `order-batch.complete` event with the counts — in the caller's transaction, so the event exists exactly when the
 * batch completed.
 */
export async function completeBatchIfSettled(trx: Transaction<Schema>, batchId: string): Promise<void> {
  const now = Date.now();
  const completed = await trx
    .updateTable("order_batches")
    .set({ status: "complete", completed_at: now })
    .where("batch_id", "=", batchId)
    .where("status", "=", "processing")
    .where("pending", "<=", 0)
    .returningAll()
    .executeTakeFirst();
  if (!completed?.callback_url) return;
  await recordWebhookEvent(trx, {
    orgId: completed.org_id,
    type: "order-batch.complete",
    url: completed.callback_url,
    data: {
      batch_id: completed.batch_id,
      ...(completed.name === null ? {} : { name: completed.name }),
      status: "complete",
      rows: completed.rows,
      accepted: completed.accepted,
      rejected: completed.rejected,
      complete: completed.accepted - completed.failed,
      failed: completed.failed,
    },
  });
}
