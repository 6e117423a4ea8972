import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import type { DatasetStage } from "../datasets/dataset-stage.js";
import { removeDataset } from "../datasets/remove-dataset.js";
import { square } from "../geometry/test-shapes.js";
import { type ImportFileOptions, importFile } from "./import-file.js";

/**
 * An import or a removal tells its follower (the command's progress line) which of its work besides reading is under
 * way: each stage once, in the order the work is done, with an import's records all counted before its end work.
 */

let folder: string;
let test: TestDatabase;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "lotline-import-stages-"));
  test = await createTestDatabase();
});
afterAll(async () => {
  await test?.destroy();
  rmSync(folder, { recursive: true, force: true });
});

/** A file of `count` squares of `size`° in a row from (-96, 41), with ids `prefix-n` in `idField`. */
function squaresFile(name: string, idField: string, prefix: string, count: number, size: number): string {
  const file = join(folder, name);
  const lines = Array.from({ length: count }, (_, n) =>
    JSON.stringify({
      type: "Feature",
      properties: { [idField]: `${prefix}-${n}` },
      geometry: square(-96 + n * 0.001, 41, size),
    }),
  );
  writeFileSync(file, lines.join("\n"));
  return file;
}

/** The stages an import went through, each with the records read when it began. */
async function stagesOf(options: ImportFileOptions): Promise<Array<[DatasetStage, number]>> {
  const stages: Array<[DatasetStage, number]> = [];
  let read = 0;
  await importFile(test.database, {
    ...options,
    onProgress: (summary) => {
      read = summary.read;
    },
    onStage: (stage) => stages.push([stage, read]),
  });
  return stages;
}

describe("the stages of an import", () => {
  it("are its end work, in order, once every record is read; a parcel import finds buildings' parcels again", async () => {
    const footprints = squaresFile("buildings.geojsonl", "BID", "B", 40, 0.0004);
    expect(await stagesOf({ kind: "buildings", file: footprints, name: "footprints", idField: "BID" })).toEqual([
      ["indexing", 40],
      ["properties", 40],
      ["committing", 40],
    ]);

    const lots = squaresFile("parcels.geojsonl", "APN", "P", 30, 0.0009);
    expect(await stagesOf({ kind: "parcels", file: lots, name: "lots", idField: "APN" })).toEqual([
      ["indexing", 30],
      ["reassigning", 30],
      ["properties", 30],
      ["committing", 30],
    ]);
  });

  it("begin with the removal of the dataset an import replaces, before any record is read", async () => {
    const file = squaresFile("layer.geojsonl", "ID", "Z", 12, 0.0005);
    await importFile(test.database, { kind: "layer", file, name: "zones 2023" });
    expect(await stagesOf({ kind: "layer", file, name: "zones 2024", rules: { replace: "zones 2023" } })).toEqual([
      ["replacing", 0],
      ["indexing", 12],
      ["properties", 12],
      ["committing", 12],
    ]);
  });

  it("of a removal are its deletion, the buildings' parcels when it held parcels, and its commit", async () => {
    const stagesOfRemoval = async (name: string) => {
      const stages: DatasetStage[] = [];
      await removeDataset(test.database, name, undefined, (stage) => stages.push(stage));
      return stages;
    };
    expect(await stagesOfRemoval("zones 2024")).toEqual(["deleting", "committing"]);
    expect(await stagesOfRemoval("lots")).toEqual(["deleting", "reassigning", "committing"]);
  });
});
