import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/run-cli.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { square } from "../geometry/test-shapes.js";
import type { BBox } from "../types.js";
import { extentOf } from "./dataset-extent.js";

let testDatabase: TestDatabase;
let folder: string;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  folder = mkdtempSync(join(tmpdir(), "lotline-extent-"));
});
afterAll(async () => {
  await testDatabase?.destroy();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Square parcels 0.001° wide, their south-west corners at `corners`, written as a GeoJSON file. */
function parcelsFile(name: string, corners: Array<[number, number]>): string {
  const features = corners.map(([lon, lat], i) => ({
    type: "Feature",
    properties: { APN: `${name}-${i}` },
    geometry: square(lon, lat, 0.001),
  }));
  const path = join(folder, `${name}.geojson`);
  writeFileSync(path, JSON.stringify({ type: "FeatureCollection", features }));
  return path;
}

async function importParcels(name: string, corners: Array<[number, number]>): Promise<void> {
  const env = { LOTLINE_DATABASE_URL: testDatabase.url, LOTLINE_PUBLIC_URL: "http://lotline.test" };
  const run = await runCli(["import", "parcels", parcelsFile(name, corners), "--id-field", "APN", "--name", name], env);
  expect(run.code, run.stderr).toBe(0);
}

async function stored(name: string): Promise<{ count: number; extent: BBox | null }> {
  const row = await testDatabase.database.db
    .selectFrom("datasets")
    .selectAll()
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return { count: Number(row.record_count), extent: extentOf(row) };
}

// SQLite measures a dataset holding most of its table in one pass over the table, and a small one through the index
// by dataset: both must answer alike.
describe("a dataset's stored extent and row count", () => {
  it("are those of all its rows, whether it holds most of its table or a small share of it", async () => {
    const grid = Array.from({ length: 30 }, (_, i): [number, number] => [
      -90 + (i % 6) * 0.002,
      35 + Math.floor(i / 6) * 0.002,
    ]);
    await importParcels("County grid", grid);
    await importParcels("Lone lot", [[-80, 30]]);

    const county = await stored("County grid");
    expect(county.count).toBe(30);
    expect(county.extent?.[0]).toBeCloseTo(-90, 9);
    expect(county.extent?.[1]).toBeCloseTo(35, 9);
    expect(county.extent?.[2]).toBeCloseTo(-90 + 5 * 0.002 + 0.001, 9);
    expect(county.extent?.[3]).toBeCloseTo(35 + 4 * 0.002 + 0.001, 9);
    const lone = await stored("Lone lot");
    expect(lone.count).toBe(1);
    expect(lone.extent).toEqual([-80, 30, -79.999, 30.001]);
  });

  it("follow a row that a later import of the same file moved", async () => {
    await importParcels("Lone lot", [[-81, 31]]);
    expect(await stored("Lone lot")).toEqual({ count: 1, extent: [-81, 31, -80.999, 31.001] });
  });
});
