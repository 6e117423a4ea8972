import type { Readable } from "node:stream";
import type { CustomField } from "@lotline/contract";
import { InvalidInputError } from "../errors.js";
import { cellsByName, csvRecordsOf } from "../geo/readers/csv-records.js";
import type { BatchSource, InputRow, RowFault } from "./input-row.js";

/** The text columns of an order, as in `POST /v1/orders`. */
const TEXT_COLUMNS = [
  "address",
  "external_id",
  "secondary_external_id",
  "insured_name",
  "renewal_date",
  "product_matrix_id",
  "callback_url",
] as const;
const KNOWN_COLUMNS = new Set<string>([...TEXT_COLUMNS, "lat", "lon", "premium_amount"]);
const CUSTOM_PREFIX = "custom.";

/** A decimal number as people write them in a CSV: `-71.1`, `42`, `.5`, `1e3`; not `0x1F`, `1,5`, `Infinity`. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A row longer than this is not an order: it bounds what one row may hold in memory. */
const MAX_RECORD_CHARS = 64 * 1024;

/**
 * The rows of a CSV batch, parsed as the body streams in: a header row naming the columns of `POST /v1/orders`
 * (`custom.<key>` for the organization's custom fields), then one order per row. Cells are text, so numbers,
 * booleans and locations are converted strictly here, and a cell that does not convert rejects its row naming the
 * column; an empty cell is a field not given. Columns no order field reads (custom keys the organization does not
 * define included) are ignored and reported. A header with neither `address` nor `lat` and `lon` refuses the file.
 */
export function csvOrderRows(body: Readable, customFields: readonly CustomField[]): BatchSource {
  const types = new Map(customFields.map((field) => [field.key, field.type]));
  let ignored: string[] = [];

  async function* rows(): AsyncIterable<InputRow> {
    let header: string[] | undefined;
    let row = 0;
    try {
      for await (const records of csvRecordsOf(body, { maxRecordChars: MAX_RECORD_CHARS })) {
        for (const record of records) {
          if ("error" in record) throw new Error(record.error);
          if (header === undefined) {
            header = record.cells.map((name) => name.trim());
            ignored = header.filter((name) => !readsColumn(name, types));
            requireLocationColumns(header);
            continue;
          }
          row += 1;
          // A row shorter than the header lacks its last columns; cells beyond the header are not read.
          const converted = orderFromCells(cellsByName(header, record.cells), types);
          yield "fault" in converted ? { row, fault: converted.fault } : { row, request: converted.order };
        }
      }
      if (header === undefined) requireLocationColumns([]);
    } catch (error) {
      if (error instanceof InvalidInputError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new InvalidInputError("invalid_csv", `the CSV cannot be read past data row ${row}: ${message}`);
    } finally {
      body.destroy();
    }
  }
  return { rows: rows(), ignoredColumns: () => ignored };
}

function readsColumn(name: string, types: ReadonlyMap<string, CustomField["type"]>): boolean {
  if (KNOWN_COLUMNS.has(name)) return true;
  return name.startsWith(CUSTOM_PREFIX) && types.has(name.slice(CUSTOM_PREFIX.length));
}

function requireLocationColumns(names: readonly string[]): void {
  if (names.includes("address") || (names.includes("lat") && names.includes("lon"))) return;
  throw new InvalidInputError(
    "batch_location_columns_missing",
    "the CSV header names neither an address column nor lat and lon columns",
  );
}

/** A row's cells as the body of `POST /v1/orders`, or the fault of the first cell that does not convert. */
function orderFromCells(
  record: Readonly<Record<string, string>>,
  types: ReadonlyMap<string, CustomField["type"]>,
): { order: Record<string, unknown> } | { fault: RowFault } {
  const order: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(record)) {
    const cell = (raw ?? "").trim();
    if (cell === "") continue;
    if (cell.includes("\u0000")) return { fault: { field: name, reason: "invalid_text" } };
    if ((TEXT_COLUMNS as readonly string[]).includes(name)) order[name] = cell;
    else if (name === "premium_amount") {
      if (!DECIMAL.test(cell)) return { fault: { field: name, reason: "not_a_number" } };
      order[name] = Number(cell);
    } else if (name.startsWith(CUSTOM_PREFIX)) {
      const key = name.slice(CUSTOM_PREFIX.length);
      const type = types.get(key);
      if (type === undefined) continue;
      const value = customValue(type, cell);
      if (value === undefined) return { fault: { field: `custom_fields.${key}`, reason: "invalid_custom_fields" } };
      custom[key] = value;
    }
  }
  const location = locationFromCells(record);
  if (location && "reason" in location) return { fault: location };
  if (location) order.location = location;
  if (Object.keys(custom).length > 0) order.custom_fields = custom;
  return { order };
}

function locationFromCells(record: Readonly<Record<string, string>>): { lat: number; lon: number } | RowFault | null {
  const lat = (record.lat ?? "").trim();
  const lon = (record.lon ?? "").trim();
  if (lat === "" && lon === "") return null;
  for (const [field, cell] of [
    ["lat", lat],
    ["lon", lon],
  ] as const) {
    if (cell === "") return { field, reason: "location_incomplete" };
    if (!DECIMAL.test(cell)) return { field, reason: "not_a_number" };
  }
  return { lat: Number(lat), lon: Number(lon) };
}

/** A custom field's cell as its type's value; undefined when it is not one (the check then names the field). */
function customValue(type: CustomField["type"], cell: string): unknown {
  switch (type) {
    case "number":
      return DECIMAL.test(cell) ? Number(cell) : undefined;
    case "boolean":
      return cell === "true" ? true : cell === "false" ? false : undefined;
    default:
      return cell;
  }
}
