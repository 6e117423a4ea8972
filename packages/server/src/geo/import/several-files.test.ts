import { stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { readSource } from "../readers/index.js";
import { testFolder } from "../readers/test-folder.js";
import { placeInFiles, readSeveralFiles, recordLabel } from "./several-files.js";

const folder = testFolder("several-files");

const lines = (count: number) =>
  Array.from({ length: count }, (_, n) => JSON.stringify({ type: "Feature", properties: { n }, geometry: null })).join(
    "\n",
  );

describe("several files read as one import", () => {
  it("numbers each file's records apart, the first file's as they are, and maps each back to its file", async () => {
    const files = [
      await folder.written("a.geojsonl", lines(3)),
      await folder.written("b.geojsonl", lines(2)),
      await folder.written("c.geojsonl", lines(1)),
    ];
    const numbers: number[] = [];
    for await (const record of readSeveralFiles(files, {}, readSource)) numbers.push(record.number);
    expect(numbers.map(recordLabel)).toEqual(["1", "2", "3", "2:1", "2:2", "3:1"]);
    expect(numbers.map((number) => placeInFiles(number, files))).toEqual([
      { file: "a.geojsonl", number: 1 },
      { file: "a.geojsonl", number: 2 },
      { file: "a.geojsonl", number: 3 },
      { file: "b.geojsonl", number: 1 },
      { file: "b.geojsonl", number: 2 },
      { file: "c.geojsonl", number: 1 },
    ]);
  });

  it("reports progress over all the files' bytes, rising to the whole", async () => {
    const files = [
      await folder.written("big.geojsonl", lines(20_000)),
      await folder.written("small.geojsonl", lines(10)),
    ];
    const reports: Array<[number, number]> = [];
    const options = { onProgress: (read: number, total: number) => reports.push([read, total]) };
    for await (const _ of readSeveralFiles(files, options, readSource)) {
      // Read to the end.
    }
    const sizes = await Promise.all(files.map(async (file) => (await stat(file)).size));
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(new Set(reports.map(([, of]) => of))).toEqual(new Set([total]));
    expect(reports.at(-1)?.[0]).toBe(total);
    const read = reports.map(([done]) => done);
    expect(read).toEqual([...read].sort((a, b) => a - b));
  });

  it("refuses to start when any file is missing, naming it", async () => {
    const there = await folder.written("there.geojsonl", lines(1));
    const missing = `${folder.path()}/missing.geojsonl`;
    const read = async () => {
      for await (const _ of readSeveralFiles([there, missing], {}, readSource)) {
        throw new Error("no record may be read before every file is found");
      }
    };
    await expect(read()).rejects.toMatchObject({ code: "source_not_found", message: expect.stringContaining(missing) });
  });
});
