import type { SourceRecord } from "../types.js";
import { messageOf } from "./json-value.js";
import { openSource } from "./open-source.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";
import { topologyRecords } from "./topology-records.js";

/**
 * Reads the features of a TopoJSON file (see `topologyRecords`). TopoJSON cannot be streamed: features share arcs
 * that may sit anywhere in the file, so the whole file is read and parsed first (JSON.parse, a few times the file's
 * size in memory), and features are then converted and handed out one at a time. Files of a few hundred megabytes
 * are the practical limit; convert larger ones to GeoJSONSeq first.
 */
export async function* readTopoJson(path: string, options: ReadOptions): AsyncGenerator<SourceRecord, void, undefined> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await openSource(path, options)) chunks.push(chunk as Buffer);
  } catch (thrown) {
    throw new SourceError("unreadable_source", `${path}: cannot read the file: ${messageOf(thrown)}`);
  }
  let topology: unknown;
  try {
    topology = JSON.parse(
      Buffer.concat(chunks)
        .toString("utf8")
        .replace(/^\uFEFF/, ""),
    );
  } catch (thrown) {
    throw new SourceError("unreadable_source", `${path}: not valid JSON: ${messageOf(thrown)}`);
  }
  chunks.length = 0;
  yield* topologyRecords(topology, options, path);
}
