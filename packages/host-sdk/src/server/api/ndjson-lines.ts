/**
 * The lines of an NDJSON body as its chunks arrive, without their line ends (`\n` or `\r\n`); blank lines are
 * skipped, and a last line without a line end is still a line. Only the unfinished line is held between chunks,
 * so memory stays bounded by the longest line however long the body is. Bytes are decoded as UTF-8 across chunk
 * boundaries (a character may be split between two chunks).
 *
 * @example
 * ```ts
 * for await (const line of ndjsonLines(response.body)) handle(JSON.parse(line));
 * ```
 */
export async function* ndjsonLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let unfinished = "";
  for await (const chunk of chunks) {
    const text = unfinished + (typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    const lines = text.split("\n");
    unfinished = lines.pop() ?? "";
    for (const line of lines) if (isContent(line)) yield withoutCarriageReturn(line);
  }
  const last = unfinished + decoder.decode();
  if (isContent(last)) yield withoutCarriageReturn(last);
}

function isContent(line: string): boolean {
  return line.trim() !== "";
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
