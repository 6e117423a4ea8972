import type { SourceRecord, TextRecord } from "../types.js";
import { reprojectionFrom } from "./crs.js";
import { recordOfText } from "./feature-record.js";
import { messageOf } from "./json-value.js";
import { openSource } from "./open-source.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";
import { textLines } from "./text-lines.js";

/** RFC 8142's record separator, which starts each text of a GeoJSON text sequence. */
const RECORD_SEPARATOR = "\x1e";

/**
 * Streams a GeoJSONSeq or NDJSON file: one Feature (or bare geometry) per line, numbered by its line. Blank lines
 * are skipped; RFC 8142 record separators are tolerated, and texts separated by them on one line each become a
 * record with that line's number. A line that is not valid JSON, or not a Feature, is an error record and reading
 * goes on. Only the current line is held in memory.
 */
export async function* readGeoJsonSeq(
  path: string,
  options: ReadOptions,
): AsyncGenerator<SourceRecord, void, undefined> {
  const reprojection = options.crs === undefined ? null : reprojectionFrom(options.crs, "--crs");
  for await (const { number, text } of readGeoJsonSeqTexts(path, options)) {
    yield recordOfText(number, text, reprojection);
  }
}

/** The texts of a GeoJSONSeq or NDJSON file as {@link readGeoJsonSeq} reads them, not yet parsed. */
export async function* readGeoJsonSeqTexts(
  path: string,
  options: ReadOptions,
): AsyncGenerator<TextRecord, void, undefined> {
  const lines = textLines(await openSource(path, options));
  let number = 0;
  try {
    for (;;) {
      let step: IteratorResult<string>;
      try {
        step = await lines.next();
      } catch (thrown) {
        throw new SourceError("unreadable_source", `${path}: cannot read the file: ${messageOf(thrown)}`);
      }
      if (step.done) return;
      number += 1;
      for (const text of step.value.split(RECORD_SEPARATOR)) {
        if (text.trim() !== "") yield { number, text };
      }
    }
  } finally {
    // Closes the file when the caller stops early.
    await lines.return();
  }
}
