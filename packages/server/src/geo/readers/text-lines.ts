import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * The lines of a UTF-8 byte stream, without their `\n` or `\r\n`, one per line of the file (blank ones too, so a
 * caller counting them gets the file's line numbers). A byte-order mark that starts the file is dropped; a final
 * line without a newline is still a line, and a newline that ends the file does not start another.
 */
export async function* textLines(bytes: Readable): AsyncGenerator<string, void, undefined> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let atStart = true;
  for await (const chunk of bytes) {
    const text = decoder.write(chunk as Buffer);
    let searchFrom = pending.length;
    pending += text;
    if (atStart && pending.length > 0) {
      atStart = false;
      if (pending.charCodeAt(0) === 0xfeff) {
        pending = pending.slice(1);
        searchFrom = 0;
      }
    }
    let start = 0;
    for (let end = pending.indexOf("\n", searchFrom); end !== -1; end = pending.indexOf("\n", start)) {
      yield withoutCarriageReturn(pending.slice(start, end));
      start = end + 1;
    }
    pending = pending.slice(start);
  }
  pending += decoder.end();
  if (pending.length > 0) yield withoutCarriageReturn(pending);
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
