import { describe, expect, it } from "vitest";
import { ndjsonLines } from "./ndjson-lines.js";

async function linesOf(...chunks: Array<Uint8Array | string>): Promise<string[]> {
  async function* arriving() {
    yield* chunks;
  }
  const lines: string[] = [];
  for await (const line of ndjsonLines(arriving())) lines.push(line);
  return lines;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("ndjsonLines", () => {
  it("joins a line split across chunks, and splits a chunk holding several lines", async () => {
    expect(await linesOf('{"row":1}\n{"ro', 'w":2}\n{"row":3}\n{', '"row":4}\n')).toEqual([
      '{"row":1}',
      '{"row":2}',
      '{"row":3}',
      '{"row":4}',
    ]);
  });

  it("keeps a last line that has no line end, and skips blank lines and CRs of CRLF line ends", async () => {
    expect(await linesOf('{"row":1}\r\n\n{"row":2}\r', '\n  \n{"row":3}')).toEqual([
      '{"row":1}',
      '{"row":2}',
      '{"row":3}',
    ]);
    expect(await linesOf()).toEqual([]);
    expect(await linesOf("\n")).toEqual([]);
  });

  it("decodes a UTF-8 character split between two byte chunks", async () => {
    const line = bytes('{"address":"12 Rue Émile"}\n');
    const cut = line.indexOf(0xc3) + 1; // inside the two bytes of É
    expect(await linesOf(line.slice(0, cut), line.slice(cut))).toEqual(['{"address":"12 Rue Émile"}']);
  });

  it("reads a line a byte at a time", async () => {
    const body = bytes('{"row":1}\n{"row":2}');
    const oneByOne = Array.from(body, (byte) => Uint8Array.of(byte));
    expect(await linesOf(...oneByOne)).toEqual(['{"row":1}', '{"row":2}']);
  });
});
