import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAN_LIST_OPEN_FILES, sqliteTemporaryFiles } from "../../test/sqlite-temporary-files.js";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../../test/test-database.js";
import { importFile } from "./import-file.js";

/**
 * Where a SQLite import's statement journals go: memory for a building import (each of its inserts journals pages
 * all over the unique index of source ids), files for one that replaces a dataset (it deletes the replaced rows in
 * one statement, whose journal holds every page they were on: at a state's size, hundreds of megabytes).
 */

let testDatabase: TestDatabase;
let folder: string;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  folder = mkdtempSync(join(tmpdir(), "lotline-journals-"));
});
afterAll(async () => {
  await testDatabase?.destroy();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/**
 * Small footprints in a grid of their own, with long source ids in no order: each 50-row insert then changes pages
 * all over the unique index, more than SQLite keeps of a statement's journal in memory by itself (64 KB). More of
 * them than an import holds back to write in space order (16,384), so that rows are written between batches.
 */
function footprintsFile(count: number): string {
  const side = Math.ceil(Math.sqrt(count));
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    const [west, south] = [-120 + (n % side) * 0.0002, 35 + Math.floor(n / side) * 0.0002];
    const ring = [
      [west, south],
      [west + 0.0001, south],
      [west + 0.0001, south + 0.0001],
      [west, south + 0.0001],
      [west, south],
    ];
    const id = `footprint-${String((n * 7919) % count).padStart(6, "0")}-of-a-county-file`;
    lines.push(
      JSON.stringify({ type: "Feature", properties: { BID: id }, geometry: { type: "Polygon", coordinates: [ring] } }),
    );
  }
  const file = join(folder, "footprints.geojsonl");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe.runIf(TEST_DIALECT === "sqlite" && CAN_LIST_OPEN_FILES)("SQLite: an import's statement journals", () => {
  it("stay in memory for a building import, and go to a file when the import replaces a dataset", async () => {
    const file = footprintsFile(20_000);
    const before = sqliteTemporaryFiles().length;
    const opened = { first: 0, replacing: 0 };
    const imported = (name: string, seen: keyof typeof opened, replace?: string) =>
      importFile(testDatabase.database, {
        kind: "buildings",
        file,
        name,
        idField: "BID",
        ...(replace ? { rules: { replace } } : {}),
        // Called inside the import's transaction after each batch: a file journal stays open until it ends.
        onProgress: () => {
          opened[seen] = Math.max(opened[seen], sqliteTemporaryFiles().length - before);
        },
      });

    expect(await imported("Journal footprints", "first")).toMatchObject({ imported: 20_000, rejected: 0 });
    expect(opened.first).toBe(0);

    expect(await imported("Journal footprints again", "replacing", "Journal footprints")).toMatchObject({
      imported: 20_000,
      rejected: 0,
    });
    expect(opened.replacing).toBeGreaterThan(0);
    const datasets = await testDatabase.database.db
      .selectFrom("datasets")
      .select("name")
      .where("name", "like", "Journal footprints%")
      .execute();
    expect(datasets.map((row) => row.name)).toEqual(["Journal footprints again"]);
  });
});
