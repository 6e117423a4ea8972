import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSource } from "./index.js";
import { collect } from "./test-collect.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "lotline-geojsonseq-test-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function feature(name: string, lon = -71.1, lat = 42.37) {
  return { type: "Feature", properties: { name }, geometry: { type: "Point", coordinates: [lon, lat] } };
}

describe("readSource on GeoJSONSeq and NDJSON", () => {
  it("numbers records by line, skips blank lines and reads on after a bad line", async () => {
    const lines = [
      JSON.stringify(feature("one")),
      "",
      JSON.stringify(feature("three")),
      '{"type": "Feature", "properties": {}, "geometry": ', // cut short
      "   ",
      JSON.stringify(feature("six")),
    ];
    const path = join(folder, "places.ndjson");
    await writeFile(path, `${lines.join("\n")}\n`);
    expect(await collect(path)).toEqual([
      { number: 1, feature: feature("one") },
      { number: 3, feature: feature("three") },
      { number: 4, error: expect.stringMatching(/^not valid JSON/) },
      { number: 6, feature: feature("six") },
    ]);
  });

  it("tolerates RFC 8142 record separators, CRLF line ends and a byte-order mark", async () => {
    const path = join(folder, "places.geojsons");
    const text = `\uFEFF\x1e${JSON.stringify(feature("a"))}\r\n\x1e${JSON.stringify(feature("b"))}\x1e${JSON.stringify(feature("c"))}\r\n`;
    await writeFile(path, text);
    expect(await collect(path)).toEqual([
      { number: 1, feature: feature("a") },
      { number: 2, feature: feature("b") },
      { number: 2, feature: feature("c") },
    ]);
  });

  it("reads bare geometries and gives error records for lines that are not Features", async () => {
    const path = join(folder, "mixed.geojsonl");
    const lines = [
      JSON.stringify({ type: "Point", coordinates: [-71.1, 42.37] }),
      JSON.stringify({ type: "FeatureCollection", features: [] }),
      "[1, 2]",
      JSON.stringify({ ...feature("bad"), properties: "x" }),
      JSON.stringify(feature("last")), // no newline at the end
    ];
    await writeFile(path, lines.join("\n"));
    expect(await collect(path)).toEqual([
      {
        number: 1,
        feature: { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [-71.1, 42.37] } },
      },
      { number: 2, error: 'expected a GeoJSON Feature, found a "FeatureCollection"' },
      { number: 3, error: "expected a GeoJSON Feature, found an array" },
      { number: 4, error: 'the properties are "x", not an object' },
      { number: 5, feature: feature("last") },
    ]);
  });

  it("reads a file of another name when the format is given", async () => {
    const path = join(folder, "export.txt");
    await writeFile(path, `${JSON.stringify(feature("x"))}\n`);
    expect(await collect(path, { format: "geojsonseq" })).toEqual([{ number: 1, feature: feature("x") }]);
  });

  it("stops reading, and closes the file, when the caller breaks off", async () => {
    const path = join(folder, "many.jsonl");
    await writeFile(path, `${Array.from({ length: 10_000 }, (_, i) => JSON.stringify(feature(`f${i}`))).join("\n")}\n`);
    let count = 0;
    for await (const _ of readSource(path)) if (++count === 3) break;
    expect(count).toBe(3);
  });
});
