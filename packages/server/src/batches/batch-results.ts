import { ORDER_BATCH_RESULT_COLUMNS, type OrderBatchResult } from "@lotline/contract";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
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

/**
 * What a spreadsheet opening the file reads as the start of a formula (CSV injection, as OWASP describes it): a text
 * the client sent, such as an external_id `=HYPERLINK(…)`, would run in the underwriter's Excel.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One result as a CSV line (RFC 4180: a cell with a comma, quote or line break is quoted, quotes doubled). A text
 * cell starting like a formula gets a leading `'` so a spreadsheet shows it as text; numbers are left as they are,
 * so a negative figure stays a number.
 */
export function resultCsvLine(result: OrderBatchResult): string {
  return `${ORDER_BATCH_RESULT_COLUMNS.map((column) => csvCell(result[column])).join(",")}\r\n`;
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
