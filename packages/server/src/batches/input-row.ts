/** Why a row was refused: a stable code, and the field to blame where one is. */
export interface RowFault {
  field?: string;
  reason: string;
}

/** One row of a batch as read: its number (1 = the first data row) and the order it asks for, or its fault. */
export type InputRow = { row: number; request: unknown } | { row: number; fault: RowFault };

/** The rows of a batch, read as they are iterated, and what the reading learned about the input's columns. */
export interface BatchSource {
  rows: AsyncIterable<InputRow>;
  /** Columns the source carried that no order field reads; known once iteration began. */
  ignoredColumns(): string[];
}
