import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database.js";
import { migrateToLatest } from "../db/migrate.js";
import { PROCESS_ORDER_JOB } from "../orders/create-order.js";
import { writeOrders } from "../orders/write-orders.js";
import { createOrganization } from "../tenancy/organizations.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { BATCH_TURN_ROWS, openBatchJob } from "./open-batch-job.js";

let test: TestDatabase;
let database: Database;
let orgId: string;

beforeAll(async () => {
  test = await createTestDatabase();
  database = test.database;
  await migrateToLatest(database);
  orgId = (await createOrganization(database.db, "Open Mutual")).org_id;
});
afterAll(() => test.destroy());

/** A taken-in batch of `rows` input rows, every fifth one rejected; answers its id and its orders by row. */
async function takenIn(rows: number): Promise<{ batchId: string; orderOfRow: Map<number, string> }> {
  const batchId = `bat_open_${rows}_${Date.now()}`;
  const matrix = await database.db
    .selectFrom("product_matrices")
    .select("product_matrix_id")
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  const orderOfRow = new Map<number, string>();
  await database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("order_batches")
      .values({
        batch_id: batchId,
        org_id: orgId,
        name: null,
        callback_url: null,
        status: "processing",
        rows,
        created_at: Date.now(),
      })
      .execute();
    const good = Array.from({ length: rows }, (_, i) => i + 1).filter((row) => row % 5 !== 0);
    const written = await writeOrders(
      trx,
      database.dialect,
      orgId,
      good.map((row) => ({
        request: { location: { lat: 42.36, lon: -71.06 }, external_id: `row-${row}` },
        productMatrixId: matrix.product_matrix_id,
      })),
      { batchId },
    );
    for (const [i, row] of good.entries()) orderOfRow.set(row, written[i]?.order_id ?? "");
    const values = Array.from({ length: rows }, (_, i) => i + 1).map((row) => ({
      batch_id: batchId,
      row_number: row,
      order_id: orderOfRow.get(row) ?? null,
      reason: orderOfRow.has(row) ? null : "address_or_location_required",
      field: null,
    }));
    for (let i = 0; i < values.length; i += 500) {
      await trx
        .insertInto("order_batch_rows")
        .values(values.slice(i, i + 500))
        .execute();
    }
  });
  return { batchId, orderOfRow };
}

async function jobsOf(orderOfRow: Map<number, string>) {
  const jobs = await database.db
    .selectFrom("jobs")
    .select(["payload", "priority"])
    .where("kind", "=", PROCESS_ORDER_JOB)
    .execute();
  const rowOfOrder = new Map([...orderOfRow].map(([row, order]) => [order, row]));
  return jobs
    .map((job) => ({ row: rowOfOrder.get((JSON.parse(job.payload) as { order_id: string }).order_id), ...job }))
    .filter((job) => job.row !== undefined);
}

describe("openBatchJob", () => {
  it("enqueues one job per accepted order, prioritised by runs of rows, and opens the batch whole", async () => {
    const { batchId, orderOfRow } = await takenIn(2 * BATCH_TURN_ROWS + 7);
    await openBatchJob(database)({ batch_id: batchId }, {} as never);
    const jobs = await jobsOf(orderOfRow);
    expect(jobs).toHaveLength(orderOfRow.size);
    expect(new Set(jobs.map((job) => job.row)).size).toBe(orderOfRow.size);
    for (const job of jobs) expect(job.priority).toBe(1 + Math.floor(((job.row ?? 0) - 1) / BATCH_TURN_ROWS));
    const batch = await database.db
      .selectFrom("order_batches")
      .select(["opened_rows", "rows"])
      .where("batch_id", "=", batchId)
      .executeTakeFirstOrThrow();
    expect(batch.opened_rows).toBeGreaterThanOrEqual(batch.rows);
  });

  it("carries on where a run cut off stopped, and a run again adds nothing", async () => {
    const { batchId, orderOfRow } = await takenIn(BATCH_TURN_ROWS + 300);
    const open = openBatchJob(database);
    // As if a crash had come after the first run of rows: its jobs and its progress committed together.
    await open({ batch_id: batchId }, {} as never);
    const all = (await jobsOf(orderOfRow)).length;
    await database.db.deleteFrom("jobs").where("kind", "=", PROCESS_ORDER_JOB).execute();
    await database.db
      .updateTable("order_batches")
      .set({ opened_rows: BATCH_TURN_ROWS })
      .where("batch_id", "=", batchId)
      .execute();
    await open({ batch_id: batchId }, {} as never);
    const rest = await jobsOf(orderOfRow);
    expect(rest.every((job) => (job.row ?? 0) > BATCH_TURN_ROWS)).toBe(true);
    expect(rest).toHaveLength([...orderOfRow.keys()].filter((row) => row > BATCH_TURN_ROWS).length);
    expect(all).toBe(orderOfRow.size);

    await open({ batch_id: batchId }, {} as never);
    expect(await jobsOf(orderOfRow)).toHaveLength(rest.length);
  });
});
