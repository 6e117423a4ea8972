import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

const BYTE_ORDER_MARK = "\ufeff";

/**
 * The lines of a UTF-8 byte stream, without their `\n` or `\r\n`, one per line of the file (blank ones too, so a
 * caller counting them gets the file's line numbers). A byte-order mark that starts the file is dropped; a final
 * line without a newline is still a line, and a newline that ends the file does not start another.
 *
 * Each chunk is decoded once and its lines cut from its text. The start of a line not ended yet waits as the texts
 * of its chunks, joined once its newline comes: appended to one text and searched again at every chunk, it was
 * copied again at every chunk it spanned, and a flood zone's line of half a megabyte spans eight, so that splitting
 * a state's flood layer into lines took three times as long.
 */
export async function* textLines(bytes: Readable): AsyncGenerator<string, void, undefined> {
  const decoder = new StringDecoder("utf8");
  /** The start of a line begun in earlier chunks, a text a chunk. */
  let waiting: string[] = [];
  let first = true;
  const line = (text: string): string => {
    const withoutMark = first && text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
    first = false;
    return withoutMark.endsWith("\r") ? withoutMark.slice(0, -1) : withoutMark;
  };
  for await (const chunk of bytes) {
    const text = decoder.write(chunk as Buffer);
    let end = text.indexOf("\n");
    let start = 0;
    if (end !== -1 && waiting.length > 0) {
      waiting.push(text.slice(0, end));
      yield line(waiting.join(""));
      waiting = [];
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    for (; end !== -1; end = text.indexOf("\n", start)) {
      yield line(text.slice(start, end));
      start = end + 1;
    }
    if (start < text.length) waiting.push(text.slice(start));
  }
  const rest = waiting.join("") + decoder.end();
  // A file of nothing but its byte-order mark holds no line.
  if (rest.length > 0 && !(first && rest === BYTE_ORDER_MARK)) yield line(rest);
}
