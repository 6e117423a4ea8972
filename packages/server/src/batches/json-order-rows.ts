import type { BatchSource, InputRow } from "./input-row.js";

/** The orders of a JSON batch as rows, numbered from 1; each is checked like the body of `POST /v1/orders`. */
export function jsonOrderRows(orders: readonly unknown[]): BatchSource {
  async function* rows(): AsyncIterable<InputRow> {
    for (const [index, request] of orders.entries()) yield { row: index + 1, request };
  }
  return { rows: rows(), ignoredColumns: () => [] };
}
