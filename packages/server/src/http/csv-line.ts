/**
 * What a spreadsheet opening the file reads as the start of a formula (CSV injection, as OWASP describes it): a text
 * the client sent, such as an external_id `=HYPERLINK(…)`, would run in the underwriter's Excel.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV line (RFC 4180: a cell with a comma, quote or line break is quoted, quotes doubled; CRLF at the end). A
 * text cell starting like a formula gets a leading `'` so a spreadsheet shows it as text; numbers are left as they
 * are, so a negative figure stays a number. Null and undefined are empty cells.
 */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
