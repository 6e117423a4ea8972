import type { SourceRecord } from "../types.js";
import { type ReadOptions, readSource } from "./index.js";

/** Every record `readSource` yields for a file, in order: what the reader tests compare against. */
export async function collect(path: string, options: ReadOptions = {}): Promise<SourceRecord[]> {
  const records: SourceRecord[] = [];
  for await (const record of readSource(path, options)) records.push(record);
  return records;
}
