import { pipeline } from "node:stream";
import { parse } from "csv-parse";
import type { SourceRecord } from "../types.js";
import { type Reprojection, reprojectionFrom } from "./crs.js";
import { wgs84Geometry } from "./geometry.js";
import { messageOf } from "./json-value.js";
import { openSource } from "./open-source.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";

/** The columns a row's point is read from. */
interface PointColumns {
  lon: string;
  lat: string;
}

/** A row as the parser hands it out: its cells by column name, and the line it starts on. */
interface NumberedRow {
  number: number;
  row: Record<string, string>;
}

/** A decimal number as people write them in a CSV: `-71.1`, `42`, `.5`, `1e3`; not `0x1F`, `1,5` or an empty cell. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/**
 * Line numbers as a person counts them. csv-parse's `info.lines` is the line a row ends on, except that it counts a
 * CRLF inside a quoted cell as two lines; this takes those back out, and counts the newlines in the row's cells to
 * find the line the row starts on. It must see every row and the header, in the parser's order.
 */
class LineCounter {
  /** CRLFs seen inside quoted cells so far, each of which csv-parse counted twice. */
  private overcount = 0;

  /** Takes note of cells (of the header, or of a row that csv-parse handed out). */
  cells(values: string[]): { newlines: number } {
    const text = values.join("");
    this.overcount += count(text, /\r\n/g);
    return { newlines: count(text, /\r\n|\n|\r/g) };
  }

  /** The true number of a line csv-parse numbered `lines`, counting the cells noted so far. */
  line(lines: number): number {
    return lines - this.overcount;
  }
}

function coordinate(row: Record<string, string>, column: string): number | string {
  const text = (row[column] ?? "").trim();
  if (text === "") return `column "${column}" is empty`;
  if (!DECIMAL.test(text)) return `column "${column}" holds "${text}", not a number`;
  return Number(text);
}

function rowRecord(
  number: number,
  row: Record<string, string>,
  point: PointColumns | null,
  reprojection: Reprojection | null,
): SourceRecord {
  if (!point) return { number, feature: { type: "Feature", properties: row, geometry: null } };
  const lon = coordinate(row, point.lon);
  if (typeof lon === "string") return { number, error: lon };
  const lat = coordinate(row, point.lat);
  if (typeof lat === "string") return { number, error: lat };
  const read = wgs84Geometry({ type: "Point", coordinates: [lon, lat] }, reprojection);
  if (read.error !== undefined) return { number, error: read.error };
  return { number, feature: { type: "Feature", properties: row, geometry: read.geometry } };
}

/**
 * Streams a CSV file (comma-separated, UTF-8, header on line 1) with csv-parse: each row becomes a Feature whose
 * properties are the row's cells by column name (as strings) and whose geometry is the Point at
 * `options.lonColumn`/`options.latColumn` (reprojected from `options.crs` when given), or null without those
 * columns. A record's number is the line the row starts on. A row with a non-numeric or out-of-range coordinate,
 * or that csv-parse rejects (a wrong number of cells, a stray quote), is an error record and reading goes on;
 * blank lines are skipped. A coordinate column missing from the header is a {@link SourceError}.
 */
export async function* readCsv(path: string, options: ReadOptions): AsyncGenerator<SourceRecord, void, undefined> {
  const { lonColumn, latColumn } = options;
  if ((lonColumn === undefined) !== (latColumn === undefined)) {
    throw new SourceError("invalid_options", "a longitude column needs a latitude column, and the other way round");
  }
  const point = lonColumn !== undefined && latColumn !== undefined ? { lon: lonColumn, lat: latColumn } : null;
  const reprojection = options.crs === undefined ? null : reprojectionFrom(options.crs, "--crs");

  let header: string[] | undefined;
  const lines = new LineCounter();
  // Rows csv-parse skipped, by the line it found the fault on; handed out in line order among the others. The
  // callbacks run as the parser meets the rows, in file order, ahead of the rows still buffered for us.
  const skipped: SourceRecord[] = [];
  const rows = parse({
    bom: true,
    columns: (names: string[]) => {
      header = names;
      lines.cells(names);
      return names;
    },
    // A quote inside an unquoted cell (`12" MAIN`) is kept as a character rather than rejecting the row.
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (row: Record<string, string>, context): NumberedRow => {
      const { newlines } = lines.cells(Object.values(row));
      return { number: lines.line(context.lines) - newlines, row };
    },
    on_skip: (error) => {
      const line = typeof error?.lines === "number" ? lines.line(error.lines) : (skipped.at(-1)?.number ?? 1) + 1;
      // The record's number says the line; csv-parse's own "on line N" may count CRLFs in cells twice.
      const message = error?.message.replace(/ (?:on|at) line \d+/, "") ?? "unreadable row";
      skipped.push({ number: line, error: message });
      return undefined;
    },
  });
  pipeline(await openSource(path, options.onProgress), rows, () => {});

  let checked = false;
  const checkHeader = () => {
    if (checked || !point || header === undefined) return;
    checked = true;
    for (const column of [point.lon, point.lat]) {
      if (!header.includes(column)) {
        throw new SourceError(
          "unknown_column",
          `${path} has no column "${column}"; its columns are ${header.map((name) => `"${name}"`).join(", ")}`,
        );
      }
    }
  };

  const iterator = rows[Symbol.asyncIterator]() as AsyncIterator<NumberedRow>;
  try {
    for (;;) {
      let step: IteratorResult<NumberedRow>;
      try {
        step = await iterator.next();
      } catch (thrown) {
        throw new SourceError("unreadable_source", `${path}: not readable as CSV: ${messageOf(thrown)}`);
      }
      checkHeader();
      if (step.done) break;
      const { number, row } = step.value;
      while (skipped[0] !== undefined && skipped[0].number < number) yield skipped.shift() as SourceRecord;
      yield rowRecord(number, row, point, reprojection);
    }
  } finally {
    rows.destroy();
  }
  yield* skipped;
}
