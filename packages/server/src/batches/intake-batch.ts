import { ORDER_BATCH_REJECTIONS_SHOWN, type OrderBatchAccepted, type OrderBatchRejection } from "@lotline/contract";
import type { Kysely, Transaction } from "kysely";
import { commitDurably } from "../db/commit-durably.js";
import { commitLazily } from "../db/commit-lazily.js";
import type { Database } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import { InvalidInputError } from "../errors.js";
import { enqueueJob } from "../jobs/index.js";
import type { OrderRules } from "../orders/order-rules.js";
import { writeOrders } from "../orders/write-orders.js";
import { newId } from "../tenancy/secrets.js";
import { callbackUrlAllowed } from "../webhooks/callback-url-allowed.js";
import { type CheckedRow, checkRow } from "./check-row.js";
import { completeBatchIfSettled } from "./complete-batch.js";
import type { BatchSource, InputRow } from "./input-row.js";
import { OPEN_BATCH_JOB } from "./open-batch-job.js";
import { BatchTooLargeError } from "./row-limit.js";

/**
 * Rows written per transaction: few enough that a single order placed meanwhile waits a few milliseconds for its
 * turn, not tens (measured with `npm run bench:batch`), at some cost in intake speed.
 */
const CHUNK_ROWS = 100;

/**
 * An intake this old was cut off (its process killed): 100,000 rows take about a minute, so an hour is far past
 * any live one. The next intake removes it.
 */
export const ABANDONED_INTAKE_MS = 3_600_000;

export interface BatchIntake {
  orgId: string;
  name: string | null;
  callbackUrl: string | null;
  rules: OrderRules;
  source: BatchSource;
  rowLimit: number;
  /** Runs in the transaction that makes the batch visible, for the caller's bookkeeping (idempotency). */
  inTransaction?: (trx: Transaction<Schema>, answer: OrderBatchAccepted) => Promise<void>;
  /** Runs in every chunk's transaction: keeps the caller's claim (an idempotency key) alive during a long intake. */
  onChunk?: (trx: Transaction<Schema>) => Promise<void>;
}

interface Tally {
  rows: number;
  accepted: number;
  rejections: OrderBatchRejection[];
  rejected: number;
}

/**
 * Takes a batch in: every row checked as a single order, good rows written as orders and every row as a compact
 * batch row, `CHUNK_ROWS` per transaction as the input streams. The batch stays `intake` — invisible, its orders
 * without jobs — until the last transaction makes it `processing` with the job that opens it (`open-batch-job.ts`:
 * its orders' jobs, a run of rows at a time); if anything fails before (a row past the limit, an unreadable
 * file), what was written is removed again, so a batch either arrives whole or not at all.
 */
export async function intakeBatch(
  database: Pick<Database, "db" | "dialect" | "syncLog">,
  intake: BatchIntake,
): Promise<OrderBatchAccepted> {
  const { db } = database;
  if (intake.callbackUrl !== null && !callbackUrlAllowed(intake.callbackUrl, intake.rules.callbackPrefixes)) {
    throw new InvalidInputError(
      "callback_url_not_registered",
      "callback_url does not start with one of the organization's registered callback prefixes",
    );
  }
  await discardAbandonedIntakes(db, Date.now() - ABANDONED_INTAKE_MS);
  const batchId = newId("bat");
  await db
    .insertInto("order_batches")
    .values({
      batch_id: batchId,
      org_id: intake.orgId,
      name: intake.name,
      callback_url: intake.callbackUrl,
      status: "intake",
      created_at: Date.now(),
    })
    .execute();
  try {
    const tally = await writeRows(database, batchId, intake);
    return await openBatch(database, batchId, intake, tally);
  } catch (error) {
    await discardBatch(db, batchId);
    throw error;
  }
}

async function writeRows(
  database: Pick<Database, "db" | "dialect">,
  batchId: string,
  intake: BatchIntake,
): Promise<Tally> {
  const tally: Tally = { rows: 0, accepted: 0, rejected: 0, rejections: [] };
  let chunk: InputRow[] = [];
  for await (const row of intake.source.rows) {
    if (row.row > intake.rowLimit) throw new BatchTooLargeError(intake.rowLimit);
    chunk.push(row);
    if (chunk.length === CHUNK_ROWS) {
      await writeChunk(database, batchId, intake, chunk, tally);
      chunk = [];
      // Rows already received parse and write in promise callbacks alone: a turn of the event loop between chunks
      // lets single orders and the job runner go on while a 100,000-row book streams in.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (chunk.length > 0) await writeChunk(database, batchId, intake, chunk, tally);
  return tally;
}

async function writeChunk(
  database: Pick<Database, "db" | "dialect">,
  batchId: string,
  intake: BatchIntake,
  chunk: readonly InputRow[],
  tally: Tally,
): Promise<void> {
  // Checked before the transaction: a drawn boundary is checked on a geometry worker, which must not hold it open.
  const checked: Array<{ row: number; result: CheckedRow }> = [];
  for (const row of chunk) {
    checked.push({
      row: row.row,
      result: "fault" in row ? { fault: row.fault } : await checkRow(intake.rules, row.request),
    });
  }
  const good = checked.flatMap(({ result }) =>
    "fault" in result ? [] : [{ request: result.request, productMatrixId: result.matrix.product_matrix_id }],
  );
  // Lazily: nothing of the batch is visible or acknowledged until the durable commit that opens it.
  await commitLazily(database, async (trx) => {
    const written = await writeOrders(trx, database.dialect, intake.orgId, good, { batchId });
    let next = 0;
    const values = checked.map(({ row, result }) =>
      "fault" in result
        ? {
            batch_id: batchId,
            row_number: row,
            order_id: null,
            reason: result.fault.reason,
            field: result.fault.field ?? null,
          }
        : {
            batch_id: batchId,
            row_number: row,
            order_id: written[next++]?.order_id ?? null,
            reason: null,
            field: null,
          },
    );
    await trx.insertInto("order_batch_rows").values(values).execute();
    await intake.onChunk?.(trx);
  });
  for (const { row, result } of checked) {
    tally.rows += 1;
    if (!("fault" in result)) {
      tally.accepted += 1;
      continue;
    }
    tally.rejected += 1;
    if (tally.rejections.length < ORDER_BATCH_REJECTIONS_SHOWN) tally.rejections.push({ row, ...result.fault });
  }
}

/** The intake's last transaction: the counts, the batch visible as `processing`, and the job that opens it. */
async function openBatch(
  database: Pick<Database, "db" | "dialect" | "syncLog">,
  batchId: string,
  intake: BatchIntake,
  tally: Tally,
): Promise<OrderBatchAccepted> {
  return commitDurably(database, async (trx) => {
    if (tally.accepted > 0) await enqueueJob(trx, OPEN_BATCH_JOB, { batch_id: batchId });
    const ignoredColumns = intake.source.ignoredColumns();
    await trx
      .updateTable("order_batches")
      .set({
        status: "processing",
        rows: tally.rows,
        accepted: tally.accepted,
        rejected: tally.rejected,
        pending: tally.accepted,
        ignored_columns: JSON.stringify(ignoredColumns),
      })
      .where("batch_id", "=", batchId)
      .execute();
    // A batch with no order to wait for is complete the moment it opens.
    await completeBatchIfSettled(trx, batchId);
    const answer: OrderBatchAccepted = {
      batch_id: batchId,
      name: intake.name,
      status: tally.accepted === 0 ? "complete" : "processing",
      rows: tally.rows,
      accepted: tally.accepted,
      rejected: tally.rejected,
      ignored_columns: ignoredColumns,
      rejections: tally.rejections,
    };
    await intake.inTransaction?.(trx, answer);
    return answer;
  });
}

/** Removes the intakes started before `before` that never opened: their process died while taking them in. */
export async function discardAbandonedIntakes(db: Kysely<Schema>, before: number): Promise<void> {
  const abandoned = await db
    .selectFrom("order_batches")
    .select("batch_id")
    .where("status", "=", "intake")
    .where("created_at", "<", before)
    .execute();
  for (const { batch_id } of abandoned) await discardBatch(db, batch_id);
}

/** Removes what a failed intake wrote; its orders never had jobs, so nothing else refers to them. */
async function discardBatch(db: Kysely<Schema>, batchId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("order_batch_rows").where("batch_id", "=", batchId).execute();
    await trx.deleteFrom("orders").where("batch_id", "=", batchId).execute();
    await trx.deleteFrom("order_batches").where("batch_id", "=", batchId).execute();
  });
}
