import { openSource } from "./open-source.js";
import type { ReadOptions } from "./read-options.js";

/** How far into a file its first lines are looked for. */
const SNIFFED_BYTES = 1 << 20;

/**
 * The first `count` lines of a file that are not blank, as it reads unpacked, found within its first megabyte
 * (fewer when it has fewer, or longer lines): what a reader looks at to tell how the file is laid out. Nothing that
 * cannot be read is thrown here: the reader that reads the file says it in its words.
 */
export async function firstLines(
  path: string,
  { object, format }: Pick<ReadOptions, "object" | "format">,
  count: number,
): Promise<string[]> {
  let bytes: Awaited<ReturnType<typeof openSource>> | undefined;
  let text = "";
  try {
    // Without the progress listener: an import's progress starts with its reading.
    bytes = await openSource(path, { ...(object === undefined ? {} : { object }), ...(format ? { format } : {}) });
    for await (const chunk of bytes) {
      text += (chunk as Buffer).toString("utf8");
      if (text.length >= SNIFFED_BYTES || complete(text).length > count) break;
    }
  } catch {
    return [];
  } finally {
    bytes?.destroy();
  }
  return complete(text).slice(0, count);
}

/** The lines of `text` that a newline ends, blank ones left out, without a byte-order mark. */
function complete(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  lines.pop();
  return lines.map((line) => line.replace(/\r$/, "")).filter((line) => line.trim() !== "");
}
