import { ORDER_BATCH_RESULT_COLUMNS, type OrderBatchResult } from "@lotline/contract";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { csvLine } from "../http/csv-line.js";
import { findBatchRow } from "./batch-queries.js";
import { headlineFigures } from "./headline-figures.js";

/** Rows read per query: the results of any batch stream in pages, never whole. */
const PAGE_ROWS = 500;

/**
 * The results of a batch, one per input row in row order: the row's order (status, reason, ids, the address as
 * located) and the property's headline figures. Checks the batch belongs to the organization before the first line,
 * then reads a page at a time by row number, so memory stays flat whatever the batch's size.
 */
export async function batchResults(
  db: Kysely<Schema>,
  orgId: string,
  batchId: string,
): Promise<AsyncIterable<OrderBatchResult>> {
  await findBatchRow(db, orgId, batchId);
  return pages(db, batchId);
}

async function* pages(db: Kysely<Schema>, batchId: string): AsyncIterable<OrderBatchResult> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("order_batch_rows as r")
      .leftJoin("orders as o", "o.order_id", "r.order_id")
      .leftJoin("properties as p", "p.property_id", "o.property_id")
      .select([
        "r.row_number",
        "r.order_id",
        "r.reason as row_reason",
        "o.status",
        "o.reason as order_reason",
        "o.property_id",
        "p.external_id",
        "p.address",
        "p.record",
      ])
      .where("r.batch_id", "=", batchId)
      .where("r.row_number", ">", after)
      .orderBy("r.row_number")
      .limit(PAGE_ROWS)
      .execute();
    for (const row of rows) {
      yield {
        row: row.row_number,
        status: row.order_id === null ? "rejected" : (row.status ?? "processing"),
        reason: row.row_reason ?? row.order_reason ?? null,
        order_id: row.order_id,
        property_id: row.property_id ?? null,
        external_id: row.external_id ?? null,
        address: row.status === "complete" ? (row.address ?? null) : null,
        ...headlineFigures(row.status === "complete" ? (row.record ?? null) : null),
      };
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE_ROWS) return;
    after = last.row_number;
  }
}

/** The CSV header of the results. */
export function resultsCsvHeader(): string {
  return `${ORDER_BATCH_RESULT_COLUMNS.join(",")}\r\n`;
}

/** One result as a CSV line (see `csvLine`: text that starts like a formula is defused). */
export function resultCsvLine(result: OrderBatchResult): string {
  return csvLine(ORDER_BATCH_RESULT_COLUMNS.map((column) => result[column]));
}
