import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/database.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { square } from "../geometry/test-shapes.js";
import { importFile } from "./import-file.js";

/**
 * A parcel import with threads hands a GeoJSONSeq file's lines to them unparsed; without threads the reader parses
 * them. Whoever parses, every record must come out the same: stored, merged, or rejected with the same reason and
 * detail.
 */

let folder: string;
let onThreads: TestDatabase;
let here: TestDatabase;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "lotline-parcel-texts-"));
  [onThreads, here] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([onThreads?.destroy(), here?.destroy()]);
  rmSync(folder, { recursive: true, force: true });
});

/** A square lot `size` wide at (x, y), in the file's units. */
const lot = (id: unknown, x: number, y: number, size: number) =>
  JSON.stringify({ type: "Feature", properties: { APN: id, USE: "R1" }, geometry: square(x, y, size) });

async function storedParcels(database: Database) {
  const rows = await database.db
    .selectFrom("parcels")
    .select(["source_id", "boundary", "area_m2", "min_lon", "min_lat", "max_lon", "max_lat"])
    .orderBy("source_id")
    .execute();
  return rows.map((row) => ({ ...row, boundary: Buffer.from(row.boundary as Uint8Array).toString("base64") }));
}

describe("a parcel import's GeoJSONSeq lines, parsed on its threads", () => {
  it.each([
    { label: "in WGS 84", origin: [-96.5, 39.5], unit: 0.0005, crs: undefined },
    { label: "reprojected from --crs", origin: [760_000, 2_960_000], unit: 150, crs: "EPSG:2249" },
  ])("store and reject what the reader's parse does, $label", async ({ label, origin, unit, crs }) => {
    const [x, y] = origin as [number, number];
    const lines = [
      ...Array.from({ length: 700 }, (_, i) =>
        lot(`L-${i + 1}`, x + (i % 30) * unit, y + Math.floor(i / 30) * unit, unit),
      ),
      // A second piece of L-1 beside it: one parcel of two pieces.
      lot("L-1", x - unit, y, unit),
      "{ not json",
      JSON.stringify({ type: "FeatureCollection", features: [] }),
      lot("---", x, y - 5 * unit, unit),
      lot(null, x, y - 7 * unit, unit),
      JSON.stringify({
        type: "Feature",
        properties: { APN: "BOWTIE-1" },
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [x, y - 9 * unit],
              [x + unit, y - 8 * unit],
              [x + unit, y - 9 * unit],
              [x, y - 8 * unit],
              [x, y - 9 * unit],
            ],
          ],
        },
      }),
      JSON.stringify({
        type: "Feature",
        properties: { APN: "BAD-1" },
        geometry: { type: "Polygon", coordinates: "none" },
      }),
      "",
      `\x1e${lot("RS-1", x + 40 * unit, y, unit)}`,
    ];
    const file = join(folder, `parcels-${label}.geojsonl`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    const options = {
      kind: "parcels" as const,
      file,
      idField: "APN",
      name: `Lots ${label}`,
      read: crs === undefined ? {} : { crs },
      rules: { maxRejected: 0.1 },
    };
    const threaded = await importFile(onThreads.database, {
      ...options,
      threads: { databaseUrl: onThreads.url, count: 1 },
    });
    const parsedHere = await importFile(here.database, options);
    expect(threaded).toEqual(parsedHere);
    // The bow tie is repaired, as an import repairs one; the rest of the rejections in the file's order.
    expect(threaded).toMatchObject({ read: 708, imported: 702, merged: 1, rejected: 5 });
    expect(threaded.rejections.map((rejection) => [rejection.number, rejection.reason])).toEqual([
      [702, "unreadable"],
      [703, "unreadable"],
      [704, "placeholder_id"],
      [705, "missing_id"],
      [707, "unreadable"],
    ]);
    expect(await storedParcels(onThreads.database)).toEqual(await storedParcels(here.database));
  });
});
