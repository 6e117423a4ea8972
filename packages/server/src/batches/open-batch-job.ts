import { sql } from "kysely";
import { commitLazily } from "../db/commit-lazily.js";
import type { Database } from "../db/database.js";
import type { JobHandler } from "../jobs/index.js";
import { PROCESS_ORDER_JOB } from "../orders/create-order.js";

/** The job that opens a batch once its intake has committed: its orders' `process_order` jobs, a run at a time. */
export const OPEN_BATCH_JOB = "open_order_batch";

/**
 * Rows of a batch processed in one turn: a batch's jobs have priority 1 for its first run of rows, 2 for the next,
 * so two batches alternate run by run, and a new batch's first rows come before an old one's remaining rows. Also
 * the rows opened per transaction.
 */
export const BATCH_TURN_ROWS = 1000;

/**
 * The `open_order_batch` job: enqueues the `process_order` jobs of a batch's orders, `BATCH_TURN_ROWS` input rows
 * a transaction, the event loop free between them. One statement for 100,000 jobs held the database and every
 * request of the process for seconds. Each transaction moves the batch's `opened_rows` on with the jobs it adds,
 * so a run cut off by a crash carries on where it stopped, and two runs at once take turns on the batch's row.
 */
export function openBatchJob(database: Database): JobHandler {
  return async (payload) => {
    const { batch_id: batchId } = payload as { batch_id: string };
    for (;;) {
      const more = await commitLazily(database, async (trx) => {
        const batch = await trx
          .updateTable("order_batches")
          .set((eb) => ({ opened_rows: eb("opened_rows", "+", BATCH_TURN_ROWS) }))
          .where("batch_id", "=", batchId)
          .where((eb) => eb("opened_rows", "<", eb.ref("rows")))
          .returning(["opened_rows", "rows"])
          .executeTakeFirst();
        if (!batch) return false;
        const through = batch.opened_rows;
        const now = Date.now();
        // Bulk priority by runs of rows: batches take turns a run at a time, and single orders (0) go first. The run
        // length goes in as a literal: SQLite divides by a bound number as a real, and priorities would be 1.001.
        await sql`insert into jobs (kind, payload, status, run_at, lease_until, last_error, created_at, finished_at,
            priority)
          select ${PROCESS_ORDER_JOB}, '{"order_id":"' || order_id || '"}', 'pending', cast(${now} as bigint), null,
            null, cast(${now} as bigint), null, 1 + (row_number - 1) / ${sql.lit(BATCH_TURN_ROWS)}
          from order_batch_rows
          where batch_id = ${batchId} and order_id is not null
            and row_number > ${through - BATCH_TURN_ROWS} and row_number <= ${through}
          order by row_number`.execute(trx);
        return through < batch.rows;
      });
      if (!more) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
}
