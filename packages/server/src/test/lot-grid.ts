import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import type { Database } from "../db/database.js";
import { rectangle } from "../geo/geometry/test-shapes.js";
import { importFile } from "../geo/import/import-file.js";

/** A grid of square lots edge to edge, `columns` × `rows` of `lot` degrees from its south-west corner. */
export const LOT_GRID = { west: -71.2, south: 42.3, lot: 0.001, columns: 40, rows: 30 };

/** The source id of the lot in `column` and `row` of the grid. */
export const lotId = (column: number, row: number) => `L-${column}-${row}`;

/** Imports {@link LOT_GRID} as parcels; answers each lot's parcel id by its source id. */
export async function importLotGrid(database: Database): Promise<Map<string, number>> {
  const { west, south, lot, columns, rows } = LOT_GRID;
  const lines = [];
  for (let i = 0; i < columns; i++) {
    for (let j = 0; j < rows; j++) {
      const geometry = rectangle(west + i * lot, south + j * lot, west + (i + 1) * lot, south + (j + 1) * lot);
      lines.push(JSON.stringify({ type: "Feature", properties: { APN: lotId(i, j) }, geometry }));
    }
  }
  const folder = mkdtempSync(join(tmpdir(), "lotline-lots-"));
  try {
    const file = join(folder, "parcels.geojsonl");
    writeFileSync(file, lines.join("\n"));
    await importFile(database, { kind: "parcels", file, name: "lots", idField: "APN" });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const found = await sql<{ parcel_id: number; source_id: string }>`
    select parcel_id, source_id from parcels`.execute(database.db);
  return new Map(found.rows.map((row) => [row.source_id, Number(row.parcel_id)]));
}
