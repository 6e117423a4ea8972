import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLotGrid, LOT_GRID, lotId } from "../../test/lot-grid.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { rectangle } from "../geometry/test-shapes.js";
import { parcelAt } from "../queries/parcel-at.js";
import type { LonLat } from "../types.js";
import { importFile } from "./import-file.js";
import { ParcelsAtPoints } from "./parcels-at-points.js";

/**
 * Addresses located by their own points get the parcel `parcelAt` would give each point: among the grid's lots and
 * parcels of another dataset partly over them (a strip along five lots, a small lot on the corner of four), each
 * overlapping a lot by less than would make it a duplicate.
 */

let test: TestDatabase;
let parcelIds: Map<string, number>;
const { west: WEST, south: SOUTH, lot: LOT, columns: COLUMNS, rows: ROWS } = LOT_GRID;

beforeAll(async () => {
  test = await createTestDatabase();
  parcelIds = await importLotGrid(test.database);
  const folder = mkdtempSync(join(tmpdir(), "lotline-overlaps-"));
  try {
    const feature = (id: string, x0: number, y0: number, x1: number, y1: number) =>
      JSON.stringify({
        type: "Feature",
        properties: { APN: id },
        geometry: rectangle(WEST + x0 * LOT, SOUTH + y0 * LOT, WEST + x1 * LOT, SOUTH + y1 * LOT),
      });
    const file = join(folder, "overlaps.geojsonl");
    writeFileSync(file, [feature("D-1", 0, 0, 5, 0.4), feature("S-1", 2.7, 2.7, 3.3, 3.3)].join("\n"));
    await importFile(test.database, { kind: "parcels", file, name: "overlaps", idField: "APN" });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await test?.destroy();
});

describe("the parcels at an import's points", () => {
  it("gives each point the parcel parcelAt gives it, keeping few boundaries, edges and corners included", async () => {
    const source = { db: test.database.db, dialect: test.database.dialect };
    const points: LonLat[] = [];
    // Every three quarters of a lot, from a lot outside the grid to one past it: inside lots, on their edges (every
    // third lot) and corners.
    for (let i = -4; i <= (COLUMNS + 1) * 4; i += 3) {
      for (let j = -4; j <= (ROWS + 1) * 4; j += 3) points.push([WEST + (i * LOT) / 4, SOUTH + (j * LOT) / 4]);
    }
    const found = await new ParcelsAtPoints(source, 50).containing(points);
    const expected = await Promise.all(points.map(async (point) => (await parcelAt(source, point))?.parcelId ?? null));
    expect(found).toEqual(expected);
    expect(found.filter((id) => id === null).length).toBeGreaterThan(50);
    expect(new Set(found).size).toBeGreaterThan(500);
  });

  it("chooses the smallest parcel holding the point", async () => {
    const source = { db: test.database.db, dialect: test.database.dialect };
    const at = (x: number, y: number): LonLat => [WEST + x * LOT, SOUTH + y * LOT];
    const [inSmall, inStrip, inLot] = await new ParcelsAtPoints(source).containing([
      at(2.9, 2.9),
      at(3.5, 0.2),
      at(2.5, 2.5),
    ]);
    const small = await test.database.db
      .selectFrom("parcels")
      .select("parcel_id")
      .where("source_id", "=", "S-1")
      .executeTakeFirstOrThrow();
    expect(inSmall).toBe(small.parcel_id);
    expect(inStrip).toBe(parcelIds.get(lotId(3, 0)));
    expect(inLot).toBe(parcelIds.get(lotId(2, 2)));
  });
});
