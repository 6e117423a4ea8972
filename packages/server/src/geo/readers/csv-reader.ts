import type { SourceRecord } from "../types.js";
import { type Reprojection, reprojectionFrom } from "./crs.js";
import { type CsvRecord, cellsByName, csvRecordsOf } from "./csv-records.js";
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

/** A decimal number as people write them in a CSV: `-71.1`, `42`, `.5`, `1e3`; not `0x1F`, `1,5` or an empty cell. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function coordinate(row: Record<string, string>, column: string): number | string {
  const text = (row[column] ?? "").trim();
  if (text === "") return `column "${column}" is empty`;
  if (!DECIMAL.test(text)) return `column "${column}" holds "${text}", not a number`;
  return Number(text);
}

function rowRecord(
  names: readonly string[],
  record: CsvRecord,
  point: PointColumns | null,
  reprojection: Reprojection | null,
): SourceRecord {
  const number = record.line;
  if ("error" in record) return { number, error: record.error };
  const { cells } = record;
  if (cells.length !== names.length) {
    const cellsRead = `${cells.length} ${cells.length === 1 ? "cell" : "cells"}`;
    return { number, error: `${cellsRead} where the header names ${names.length} columns` };
  }
  const row = cellsByName(names, cells);
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
 * Streams a CSV file (comma-separated, UTF-8, header on line 1; see `csv-records.ts`): each row becomes a Feature
 * whose properties are the row's cells by column name (as strings) and whose geometry is the Point at
 * `options.lonColumn`/`options.latColumn` (reprojected from `options.crs` when given), or null without those
 * columns. A record's number is the line the row starts on. A row with a non-numeric or out-of-range coordinate, a
 * number of cells other than the header's, or a quote out of place is an error record and reading goes on; blank
 * lines are skipped. A coordinate column missing from the header is a {@link SourceError}.
 */
export async function* readCsv(path: string, options: ReadOptions): AsyncGenerator<SourceRecord, void, undefined> {
  const { lonColumn, latColumn } = options;
  if ((lonColumn === undefined) !== (latColumn === undefined)) {
    throw new SourceError("invalid_options", "a longitude column needs a latitude column, and the other way round");
  }
  const point = lonColumn !== undefined && latColumn !== undefined ? { lon: lonColumn, lat: latColumn } : null;
  const reprojection = options.crs === undefined ? null : reprojectionFrom(options.crs, "--crs");

  const bytes = await openSource(path, options);
  const chunks = csvRecordsOf(bytes);
  let header: string[] | undefined;
  try {
    for (;;) {
      let step: IteratorResult<CsvRecord[]>;
      try {
        step = await chunks.next();
      } catch (thrown) {
        throw new SourceError("unreadable_source", `${path}: not readable: ${messageOf(thrown)}`);
      }
      if (step.done) return;
      for (const record of step.value) {
        if (header) yield rowRecord(header, record, point, reprojection);
        else header = headerOf(path, record, point);
      }
    }
  } finally {
    bytes.destroy();
  }
}

/** The columns named on the header line. */
function headerOf(path: string, record: CsvRecord, point: PointColumns | null): string[] {
  if ("error" in record) {
    throw new SourceError(
      "unreadable_source",
      `${path}: the header on line ${record.line} cannot be read: ${record.error}`,
    );
  }
  const names = record.cells;
  for (const column of point ? [point.lon, point.lat] : []) {
    if (!names.includes(column)) {
      throw new SourceError(
        "unknown_column",
        `${path} has no column "${column}"; its columns are ${names.map((name) => `"${name}"`).join(", ")}`,
      );
    }
  }
  return names;
}
