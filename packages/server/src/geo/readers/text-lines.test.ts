import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textLines } from "./text-lines.js";

/** The file's lines as a reader must give them, from its whole text at once. */
function linesOf(text: string): string[] {
  const body = text.startsWith("\ufeff") ? text.slice(1) : text;
  if (body === "") return [];
  const lines = body.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** `bytes` cut at `cuts` (byte offsets, in any order), as a file stream hands them over. */
function chunked(bytes: Buffer, cuts: number[]): Readable {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const end of [...at, bytes.length]) {
    if (end > start) chunks.push(bytes.subarray(start, end));
    start = Math.max(start, end);
  }
  return Readable.from(chunks);
}

async function read(stream: Readable): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of textLines(stream)) lines.push(line);
  return lines;
}

describe("textLines", () => {
  it("gives every line of the file whole, wherever its chunks are cut (characters and CRLF across cuts)", async () => {
    const line = fc
      .array(fc.constantFrom("a", "é", "€", "𝄞", " ", "\r", ",", "{"), { maxLength: 12 })
      .map((chars) => chars.join(""));
    const file = fc.record({
      mark: fc.boolean(),
      lines: fc.array(line, { maxLength: 8 }),
      newline: fc.constantFrom("\n", "\r\n"),
      ending: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(file, fc.array(fc.nat(), { maxLength: 10 }), async ({ mark, lines, newline, ending }, cuts) => {
        const text = `${mark ? "\ufeff" : ""}${lines.join(newline)}${ending && lines.length > 0 ? newline : ""}`;
        expect(await read(chunked(Buffer.from(text, "utf8"), cuts))).toEqual(linesOf(text));
      }),
    );
  });

  it("keeps blank lines, drops a starting byte-order mark, and reads a last line without its newline", async () => {
    expect(await read(chunked(Buffer.from("\ufeffa\r\n\r\n\nb"), [1, 2, 5]))).toEqual(["a", "", "", "b"]);
    expect(await read(chunked(Buffer.from("\ufeff"), [1]))).toEqual([]);
    expect(await read(chunked(Buffer.from("\n"), []))).toEqual([""]);
    expect(await read(chunked(Buffer.from(""), []))).toEqual([]);
  });

  it("reads a line of a megabyte cut into 64 kB chunks as one line", async () => {
    const long = `{"coordinates":[${"[-71.1,42.3],".repeat(80_000)}[0,0]]}`;
    const bytes = Buffer.from(`${long}\nnext\n`);
    const cuts = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => i * 65_536);
    expect(await read(chunked(bytes, cuts))).toEqual([long, "next"]);
  });
});
