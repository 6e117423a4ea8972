import { ORDER_BATCH_REJECTIONS_SHOWN, type OrderBatchAccepted, type OrderBatchRejection } from "@lotline/contract";
import { type Kysely, sql, type Transaction } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError } from "../errors.js";
import { PROCESS_ORDER_JOB, writeOrder } from "../orders/create-order.js";
import type { OrderRules } from "../orders/order-rules.js";
import { newId } from "../tenancy/secrets.js";
import { callbackUrlAllowed } from "../webhooks/callback-url-allowed.js";
import { type CheckedRow, checkRow } from "./check-row.js";
import { completeBatchIfSettled } from "./complete-batch.js";
import type { BatchSource, InputRow } from "./input-row.js";
import { BatchTooLargeError } from "./row-limit.js";

/** Rows written per transaction: short enough that other writers (single orders, workers) never wait long. */
const CHUNK_ROWS = 500;

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
 * without jobs — until the last transaction enqueues all its orders' jobs and makes it `processing` at once; if
 * anything fails before (a row past the limit, an unreadable file), what was written is removed again, so a batch
 * either arrives whole or not at all.
 */
export async function intakeBatch(db: Kysely<Schema>, intake: BatchIntake): Promise<OrderBatchAccepted> {
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
    const tally = await writeRows(db, batchId, intake);
    return await openBatch(db, batchId, intake, tally);
  } catch (error) {
    await discardBatch(db, batchId);
    throw error;
  }
}

async function writeRows(db: Kysely<Schema>, batchId: string, intake: BatchIntake): Promise<Tally> {
  const tally: Tally = { rows: 0, accepted: 0, rejected: 0, rejections: [] };
  let chunk: InputRow[] = [];
  for await (const row of intake.source.rows) {
    if (row.row > intake.rowLimit) throw new BatchTooLargeError(intake.rowLimit);
    chunk.push(row);
    if (chunk.length === CHUNK_ROWS) {
      await writeChunk(db, batchId, intake, chunk, tally);
      chunk = [];
    }
  }
  if (chunk.length > 0) await writeChunk(db, batchId, intake, chunk, tally);
  return tally;
}

async function writeChunk(
  db: Kysely<Schema>,
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
  await db.transaction().execute(async (trx) => {
    const now = Date.now();
    const values = [];
    for (const { row, result } of checked) {
      if ("fault" in result) {
        values.push({
          batch_id: batchId,
          row_number: row,
          order_id: null,
          reason: result.fault.reason,
          field: result.fault.field ?? null,
        });
        continue;
      }
      const accepted = await writeOrder(trx, intake.orgId, result.request, result.matrix.product_matrix_id, {
        batchId,
        now,
      });
      values.push({ batch_id: batchId, row_number: row, order_id: accepted.order_id, reason: null, field: null });
    }
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

/** The intake's last transaction: every order's job at once, the counts, and the batch visible as `processing`. */
async function openBatch(
  db: Kysely<Schema>,
  batchId: string,
  intake: BatchIntake,
  tally: Tally,
): Promise<OrderBatchAccepted> {
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    await sql`insert into jobs (kind, payload, status, run_at, lease_until, last_error, created_at, finished_at)
      select ${PROCESS_ORDER_JOB}, '{"order_id":"' || order_id || '"}', 'pending', cast(${now} as bigint), null, null,
        cast(${now} as bigint), null
      from order_batch_rows where batch_id = ${batchId} and order_id is not null order by row_number`.execute(trx);
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
