import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { type ProgressListener, type ReadOptions, SourceError } from "../readers/index.js";

/**
 * The records of several files read into one import are numbered apart: the k-th file's (from 0) as `k × FILE_STRIDE`
 * plus their number in their file, so that the first file's keep their own numbers, every number stays unique, and
 * each maps back to its file and number there. 2^40 leaves room for a trillion records a file and 8,192 files.
 */
const FILE_STRIDE = 2 ** 40;
const MOST_FILES = 2 ** 53 / FILE_STRIDE;

/**
 * The records of `files`, one file after the other, each read by `read` and renumbered (see {@link FILE_STRIDE}).
 * Every file must exist before the first is read: a state's 351 town files fail on the missing one at once, not
 * after the 350 before it. Progress is reported over all the files' bytes.
 */
export async function* readSeveralFiles<R extends { number: number }>(
  files: readonly string[],
  options: ReadOptions,
  read: (file: string, options: ReadOptions) => AsyncIterable<R>,
): AsyncIterable<R> {
  if (files.length > MOST_FILES) {
    throw new SourceError("invalid_options", `${files.length} files; one import reads at most ${MOST_FILES}`);
  }
  const sizes = await Promise.all(files.map(fileSize));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let done = 0;
  for (const [index, file] of files.entries()) {
    const size = sizes[index] as number;
    const onProgress = options.onProgress && progressWithin(options.onProgress, done, size, total);
    const offset = index * FILE_STRIDE;
    for await (const record of read(file, { ...options, ...(onProgress ? { onProgress } : {}) })) {
      record.number += offset;
      yield record;
    }
    done += size;
  }
}

/** The file (by base name) of a record of several files and its number there. */
export function placeInFiles(number: number, files: readonly string[]): { file: string; number: number } {
  const index = Math.floor(number / FILE_STRIDE);
  return { file: basename(files[index] ?? ""), number: number - index * FILE_STRIDE };
}

/**
 * A record's number as a person reads it: as it is in the first file, `k:n` for record n of the k-th (from 1).
 * What an import without an id field names a record by.
 */
export function recordLabel(number: number): string {
  const index = Math.floor(number / FILE_STRIDE);
  return index === 0 ? String(number) : `${index + 1}:${number - index * FILE_STRIDE}`;
}

async function fileSize(file: string): Promise<number> {
  try {
    const found = await stat(file);
    if (found.isFile()) return found.size;
  } catch {
    throw new SourceError("source_not_found", `${file}: no such file`);
  }
  throw new SourceError("source_not_found", `${file} is not a file`);
}

/** A file's own progress as a share of all the files' bytes, those before it done. */
function progressWithin(report: ProgressListener, before: number, size: number, total: number): ProgressListener {
  return (read, of) => report(Math.round(before + (of > 0 ? Math.min(1, read / of) : 1) * size), total);
}
