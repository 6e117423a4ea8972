import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { posix } from "node:path";
import { finished, PassThrough, pipeline, type Readable, Transform } from "node:stream";
import { createGunzip } from "node:zlib";
import type { Entry, ZipFile } from "yauzl";
import { messageOf } from "./json-value.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";
import { formatOfName, packingOf, sourceFormat } from "./source-format.js";
import { isZipClutter } from "./zip-clutter.js";

/**
 * The bytes of a source file as a stream, unpacked as its name says (`packingOf`): a `.gz` file gunzipped, the one
 * file of a `.geojson.zip` (and the like) read out of the zip, both as they are read, never to a file of their own,
 * so that a statewide file is imported as published. Each chunk is reported to `onProgress` when given: the bytes of
 * the file read so far, or of the zipped file. A read error (the file vanished, is a folder; gzip or zip data that
 * is corrupt) comes out of the returned stream, a {@link SourceError} for a corrupt packing; destroying that stream
 * closes the file.
 */
export async function openSource(
  path: string,
  { onProgress, object, format }: Pick<ReadOptions, "onProgress" | "object" | "format"> = {},
): Promise<Readable> {
  const fileSize = async () => (await stat(path)).size;
  switch (packingOf(path, format)) {
    case "plain":
      return counted(createReadStream(path), onProgress, fileSize);
    case "gzip":
      return unpacked(path, [counted(createReadStream(path), onProgress, fileSize), createGunzip()], "not gzip data");
    case "zip": {
      const { stream, size } = await zippedFile(path, object, format);
      return unpacked(path, [counted(stream, onProgress, () => size)], "a corrupt zipped file");
    }
  }
}

/** `bytes` passed through a counter that reports each chunk (of `size()` bytes in all) to `onProgress`. */
function counted(
  bytes: Readable,
  onProgress: ReadOptions["onProgress"],
  size: () => Promise<number> | number,
): Readable {
  if (!onProgress) return bytes;
  let total: number | undefined;
  let bytesRead = 0;
  const counter = new Transform({
    async transform(chunk: Buffer, _encoding, done) {
      total ??= await size();
      bytesRead += chunk.length;
      onProgress(bytesRead, total);
      done(null, chunk);
    },
  });
  // Errors reach the consumer through `counter`, which the pipeline destroys with them.
  pipeline(bytes, counter, () => {});
  return counter;
}

/**
 * The bytes of `stages` piped one into the next, as one stream. What fails a stage reaches the consumer as a
 * {@link SourceError} naming the file and saying `what` it then is (`not gzip data`), but a read error (the file
 * vanished) as it is. A consumer that stops early closes the file.
 */
function unpacked(path: string, stages: [Readable, ...Transform[]], what: string): Readable {
  const out = new PassThrough();
  const failed = (error: Error) => {
    for (const stage of stages) stage.destroy();
    out.destroy(
      "syscall" in error ? error : new SourceError("unreadable_source", `${path}: ${what}: ${messageOf(error)}`),
    );
  };
  // Piped by hand, not by `pipeline`: that reports success once the last stage has taken all its input, and a
  // gunzip finds a file cut short only after that, as it flushes.
  for (const [i, stage] of stages.entries()) {
    stage.once("error", failed);
    stage.pipe((stages[i + 1] as Transform | undefined) ?? out);
  }
  out.once("close", () => {
    for (const stage of stages) stage.destroy();
  });
  return out;
}

/**
 * The one file of a zip in the zip's format (or the one `object` names), as a stream, with its unzipped size. Given
 * the format, a file whose name says no format is taken too (`NAD.txt` for `--format csv`).
 */
async function zippedFile(
  path: string,
  object: string | undefined,
  given: ReadOptions["format"],
): Promise<{ stream: Readable; size: number }> {
  const format = sourceFormat(path, given);
  const inFormat = (fileName: string) => {
    const named = formatOfName(fileName);
    return named === format || (given !== undefined && named === undefined);
  };
  // Loaded for a zip only, as the readers are (see `readSource`).
  const { default: yauzl } = await import("yauzl");
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, { autoClose: false, lazyEntries: true });
  } catch (thrown) {
    throw new SourceError("unreadable_source", `${path}: not a readable zip archive: ${messageOf(thrown)}`);
  }
  const members: Entry[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      if (!isZipClutter(entry.fileName) && inFormat(entry.fileName)) members.push(entry);
    }
  } catch (thrown) {
    zip.close();
    throw new SourceError("unreadable_source", `${path}: not a readable zip archive: ${messageOf(thrown)}`);
  }
  try {
    const member = chooseMember(path, format, members, object);
    const stream = await readMember(path, zip, member);
    // The zip closes with the member's stream, read to its end or stopped early.
    finished(stream, () => zip.close());
    return { stream, size: member.uncompressedSize };
  } catch (thrown) {
    zip.close();
    throw thrown;
  }
}

async function readMember(path: string, zip: ZipFile, member: Entry): Promise<Readable> {
  try {
    return await zip.openReadStreamPromise(member);
  } catch (thrown) {
    throw new SourceError("unreadable_source", `${path}: cannot read ${member.fileName}: ${messageOf(thrown)}`);
  }
}

function chooseMember(path: string, format: string, members: Entry[], object: string | undefined): Entry {
  const names = members.map((entry) => `"${posix.basename(entry.fileName)}"`).join(", ");
  if (object !== undefined && members.length > 1) {
    const wanted = object.toLowerCase();
    const match = members.find((entry) => {
      const name = posix.basename(entry.fileName).toLowerCase();
      return name === wanted || name.slice(0, name.lastIndexOf(".")) === wanted;
    });
    if (match) return match;
    throw new SourceError("unknown_object", `${path} holds no file "${object}"; it holds ${names}`);
  }
  const [only, ...others] = members;
  if (only === undefined) throw new SourceError("unreadable_source", `${path} holds no ${format} file`);
  if (others.length > 0) {
    throw new SourceError(
      "unknown_object",
      `${path} holds several ${format} files (${names}); choose one with --object`,
    );
  }
  return only;
}
