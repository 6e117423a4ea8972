import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";

export interface EnqueueOptions {
  /** When the job may first run; now by default. */
  runAt?: number;
  /** Lower runs first: 0 (the default) for work someone waits for, more for bulk work. */
  priority?: number;
  now?: number;
}

/**
 * Adds a job and answers its id. Call it with the transaction that makes the change the job follows from, so the
 * job exists exactly when that change committed: a rollback takes the job with it, a commit makes it durable.
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   await trx.insertInto("orders").values(order).execute();
 *   await enqueueJob(trx, "order.process", { orderId: order.order_id });
 * });
 * runner.nudge();
 */
export async function enqueueJob(
  db: Kysely<Schema>,
  kind: string,
  payload: unknown,
  { now = Date.now(), runAt = now, priority = 0 }: EnqueueOptions = {},
): Promise<number> {
  const row = await db
    .insertInto("jobs")
    .values({
      kind,
      payload: JSON.stringify(payload) ?? "null",
      status: "pending",
      run_at: runAt,
      priority,
      lease_until: null,
      last_error: null,
      created_at: now,
      finished_at: null,
    })
    .returning("job_id")
    .executeTakeFirstOrThrow();
  return row.job_id;
}
