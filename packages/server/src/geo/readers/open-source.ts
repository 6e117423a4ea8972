import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline, type Readable, Transform } from "node:stream";
import type { ProgressListener } from "./read-options.js";

/**
 * The bytes of a file as a stream, reporting each chunk to `onProgress` when given. A read error (the file
 * vanished, is a folder) comes out of the returned stream; destroying that stream closes the file.
 */
export async function openSource(path: string, onProgress?: ProgressListener): Promise<Readable> {
  if (!onProgress) return createReadStream(path);
  const { size } = await stat(path);
  const file = createReadStream(path);
  let bytesRead = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytesRead += chunk.length;
      onProgress(bytesRead, size);
      done(null, chunk);
    },
  });
  // Errors reach the consumer through `counter`, which the pipeline destroys with them.
  pipeline(file, counter, () => {});
  return counter;
}
