import { StringDecoder } from "node:string_decoder";
import type { SourceRecord } from "../types.js";
import { type Reprojection, reprojectionFrom } from "./crs.js";
import { type CsvRecord, CsvRecords } from "./csv-records.js";
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
  header: Header,
  record: CsvRecord,
  point: PointColumns | null,
  reprojection: Reprojection | null,
): SourceRecord {
  const number = record.line;
  if ("error" in record) return { number, error: record.error };
  const { cells } = record;
  const { names } = header;
  if (cells.length !== names.length) {
    const cellsRead = `${cells.length} ${cells.length === 1 ? "cell" : "cells"}`;
    return { number, error: `${cellsRead} where the header names ${names.length} columns` };
  }
  const row: Record<string, string> = {};
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string;
    const cell = cells[index] as string;
    if (header.hasProto && name === "__proto__") Object.defineProperty(row, name, { value: cell, enumerable: true });
    else row[name] = cell;
  }
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

  const bytes = await openSource(path, options.onProgress);
  const chunks = bytes[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const decoder = new StringDecoder("utf8");
  const splitter = new CsvRecords();
  let header: Header | undefined;
  try {
    for (;;) {
      let step: IteratorResult<Buffer>;
      try {
        step = await chunks.next();
      } catch (thrown) {
        throw new SourceError("unreadable_source", `${path}: not readable: ${messageOf(thrown)}`);
      }
      const records = step.done
        ? [...splitter.push(decoder.end()), ...splitter.end()]
        : splitter.push(decoder.write(step.value));
      for (const record of records) {
        if (header) yield rowRecord(header, record, point, reprojection);
        else header = headerOf(path, record, point);
      }
      if (step.done) return;
    }
  } finally {
    bytes.destroy();
  }
}

/** The columns named on the header line, and whether one of them is `__proto__`, which must be set as data. */
interface Header {
  names: string[];
  hasProto: boolean;
}

function headerOf(path: string, record: CsvRecord, point: PointColumns | null): Header {
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
  return { names, hasProto: names.includes("__proto__") };
}
