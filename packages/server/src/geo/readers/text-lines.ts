import type { Readable } from "node:stream";

const NEWLINE = 0x0a;
const BYTE_ORDER_MARK = "\ufeff";

/**
 * The lines of a UTF-8 byte stream, without their `\n` or `\r\n`, one per line of the file (blank ones too, so a
 * caller counting them gets the file's line numbers). A byte-order mark that starts the file is dropped; a final
 * line without a newline is still a line, and a newline that ends the file does not start another.
 *
 * Newlines are found in the bytes, and each line is decoded once, whole: a newline byte is never part of another
 * character, so a character cut between two chunks is joined again with its line. Decoding each chunk and
 * appending it to the text still waiting for its newline copied that text again at every chunk: a flood zone's
 * line of half a megabyte came in eight chunks, and splitting a state's flood layer took four times as long.
 */
export async function* textLines(bytes: Readable): AsyncGenerator<string, void, undefined> {
  /** The bytes of a line begun in earlier chunks, waiting for its newline. */
  let pieces: Buffer[] = [];
  let first = true;
  const line = (text: string): string => {
    const withoutMark = first && text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
    first = false;
    return withoutMark.endsWith("\r") ? withoutMark.slice(0, -1) : withoutMark;
  };
  for await (const chunk of bytes) {
    const buffer = chunk as Buffer;
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      if (pieces.length === 0) yield line(buffer.toString("utf8", start, end));
      else {
        pieces.push(buffer.subarray(start, end));
        yield line(Buffer.concat(pieces).toString("utf8"));
        pieces = [];
      }
      start = end + 1;
    }
    if (start < buffer.length) pieces.push(buffer.subarray(start));
  }
  if (pieces.length === 0) return;
  const last = Buffer.concat(pieces).toString("utf8");
  // A file of nothing but its byte-order mark holds no line.
  if (!(first && last === BYTE_ORDER_MARK)) yield line(last);
}
