import { describe, expect, it } from "vitest";
import { type CsvRecord, CsvRecords, MAX_RECORD_CHARS } from "./csv-records.js";

/** The records of `text` handed over in chunks of `size` characters (all at once by default). */
function records(text: string, size = text.length || 1): CsvRecord[] {
  const splitter = new CsvRecords();
  const read: CsvRecord[] = [];
  for (let start = 0; start < text.length; start += size) read.push(...splitter.push(text.slice(start, start + size)));
  return [...read, ...splitter.end()];
}

/** A cell as RFC 4180 writes it: quoted when it holds a comma, quote or line break. */
function written(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** A small deterministic generator, so that a failure names the seed that found it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("CsvRecords", () => {
  it("splits cells at commas, quoted cells holding commas, doubled quotes and line breaks", () => {
    expect(records('a,b,c\n1,"2, two","say ""hi"""\n"multi\nline",,x\n')).toEqual([
      { line: 1, cells: ["a", "b", "c"] },
      { line: 2, cells: ["1", "2, two", 'say "hi"'] },
      { line: 3, cells: ["multi\nline", "", "x"] },
    ]);
  });

  it("numbers records by the line they start on, with LF, CRLF or CR line ends and empty lines passed over", () => {
    for (const end of ["\n", "\r\n", "\r"]) {
      const text = ["h1,h2", "", '"x', 'y",1', "", "", "z,2"].join(end);
      expect(records(text)).toEqual([
        { line: 1, cells: ["h1", "h2"] },
        { line: 3, cells: [`x${end}y`, "1"] },
        { line: 7, cells: ["z", "2"] },
      ]);
    }
  });

  it("keeps a quote inside an unquoted cell as a character, and a trailing comma as an empty last cell", () => {
    expect(records('12" MAIN ST,a"b"\nx,\n,\n')).toEqual([
      { line: 1, cells: ['12" MAIN ST', 'a"b"'] },
      { line: 2, cells: ["x", ""] },
      { line: 3, cells: ["", ""] },
    ]);
  });

  it("drops a byte-order mark at the start of the text, and only there", () => {
    expect(records("\uFEFFid,name\n1,\uFEFFx\n")).toEqual([
      { line: 1, cells: ["id", "name"] },
      { line: 2, cells: ["1", "\uFEFFx"] },
    ]);
  });

  it("rejects a record whose quoted cell is closed by another character, and goes on at the next line", () => {
    expect(records('a,b\n"one"two,3\n4,5\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, error: 'a quoted cell is followed by "t", not a comma' },
      { line: 3, cells: ["4", "5"] },
    ]);
  });

  it("rejects a quote left open at the end of the text, and a record too long to be data", () => {
    expect(records('a,b\n1,"never closed\n2,3\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, error: "a quoted cell is not closed by the end of the file" },
    ]);
    const long = `a,b\n1,"${"x".repeat(MAX_RECORD_CHARS + 100_000)}\n2,3\n`;
    const read = records(long, 64 * 1024);
    expect(read[1]).toEqual({ line: 2, error: expect.stringContaining("is a quote left open?") });
    expect(read).toHaveLength(3);
    expect(read[2]).toEqual({ line: 3, cells: ["2", "3"] });
  });

  it("reads the last record without a line break after it", () => {
    expect(records("a,b\n1,2")).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["1", "2"] },
    ]);
    expect(records('a\n"q"')).toEqual([
      { line: 1, cells: ["a"] },
      { line: 2, cells: ["q"] },
    ]);
  });

  it("gives back any cells written as RFC 4180, however the text is cut into chunks", () => {
    const alphabet = ["a", "Z", " ", ",", '"', "\n", "\r\n", "é", "0"];
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const rows = Array.from({ length: 1 + Math.floor(next() * 6) }, () =>
        Array.from({ length: 3 }, () =>
          Array.from({ length: Math.floor(next() * 6) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(""),
        ),
      );
      // A record of one empty cell would be an empty line, which is passed over.
      const text = rows.map((row) => row.map(written).join(",")).join(seed % 2 ? "\n" : "\r\n");
      const whole = records(text);
      expect(
        whole.map((record) => ("cells" in record ? record.cells : record)),
        `seed ${seed}`,
      ).toEqual(rows);
      for (const size of [1, 2, 3, 7]) expect(records(text, size), `seed ${seed}, chunks of ${size}`).toEqual(whole);
    }
  });
});
