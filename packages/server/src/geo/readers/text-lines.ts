import type { Readable } from "node:stream";

const NEWLINE = 0x0a;
const BYTE_ORDER_MARK = "\ufeff";

/**
 * The lines of a UTF-8 byte stream, without their `\n` or `\r\n`, one per line of the file (blank ones too, so a
 * caller counting them gets the file's line numbers). A byte-order mark that starts the file is dropped; a final
 * line without a newline is still a line, and a newline that ends the file does not start another.
 *
 * Each chunk is decoded once, up to its last newline, with the bytes of a line begun in earlier chunks before it
 * (a newline byte is never part of another character, so a character cut between chunks is whole again); the
 * lines are cut from that text. A line's unfinished bytes wait as bytes: appending each chunk's text to the text
 * still waiting for its newline copied that text again at every chunk, and a flood zone's line of half a megabyte
 * came in eight, so that splitting a state's flood layer into lines took three times as long.
 */
export async function* textLines(bytes: Readable): AsyncGenerator<string, void, undefined> {
  /** The bytes after the last newline read, waiting for the next one. */
  let pieces: Buffer[] = [];
  let first = true;
  const line = (text: string): string => {
    const withoutMark = first && text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
    first = false;
    return withoutMark.endsWith("\r") ? withoutMark.slice(0, -1) : withoutMark;
  };
  for await (const chunk of bytes) {
    const buffer = chunk as Buffer;
    const last = buffer.lastIndexOf(NEWLINE);
    if (last === -1) {
      pieces.push(buffer);
      continue;
    }
    const ended = buffer.subarray(0, last);
    const text = pieces.length === 0 ? ended.toString("utf8") : Buffer.concat([...pieces, ended]).toString("utf8");
    pieces = last + 1 < buffer.length ? [buffer.subarray(last + 1)] : [];
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      yield line(text.slice(start, end));
      start = end + 1;
    }
    yield line(text.slice(start));
  }
  if (pieces.length === 0) return;
  const rest = Buffer.concat(pieces).toString("utf8");
  // A file of nothing but its byte-order mark holds no line.
  if (!(first && rest === BYTE_ORDER_MARK)) yield line(rest);
}
