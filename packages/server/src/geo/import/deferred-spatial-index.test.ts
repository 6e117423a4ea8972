import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../../db/schema.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { square } from "../geometry/test-shapes.js";
import { bboxMeets, KEY, layerBBoxMeets } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";
import { DeferredSpatialIndex } from "./deferred-spatial-index.js";
import { importFile } from "./import-file.js";
import { ImportRefusedError } from "./import-refused.js";

/**
 * On SQLite an import enters the rows it adds into the R*Tree at its end rather than through the insert trigger:
 * whatever the import, every row must then be found at its box and nowhere else, and the trigger must be back.
 */

let folder: string;
let test: TestDatabase;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "lotline-deferred-index-"));
  test = await createTestDatabase();
});
afterAll(async () => {
  await test?.destroy();
  rmSync(folder, { recursive: true, force: true });
});

const squareFeature = (idField: string, id: string, x: number, y: number, size: number) =>
  JSON.stringify({ type: "Feature", properties: { [idField]: id }, geometry: square(x, y, size) });

/** `count` squares in rows of 20 from (-97, 40), `size` wide, numbered from `first`; `moved` ones 0.5° east. */
function squares(
  idField: string,
  prefix: string,
  first: number,
  count: number,
  size: number,
  moved = new Set<number>(),
) {
  return Array.from({ length: count }, (_, i) => {
    const n = first + i;
    const x = -97 + (n % 20) * 0.001 + (moved.has(n) ? 0.5 : 0);
    return squareFeature(idField, `${prefix}-${n}`, x, 40 + Math.floor(n / 20) * 0.001, size);
  });
}

function fileOf(name: string, lines: string[]): string {
  const file = join(folder, name);
  writeFileSync(file, lines.join("\n"));
  return file;
}

type Table = "parcels" | "buildings";

interface Entry {
  id: number;
  box: BBox;
}

/** Every row's id and box, in id order; in `db`, a transaction, when given. */
async function rowsOf(table: Table, db: Kysely<Schema> = test.database.db): Promise<Entry[]> {
  const { rows } = await sql<{ id: number; min_lon: number; min_lat: number; max_lon: number; max_lat: number }>`
    select ${sql.ref(KEY[table])} as id, min_lon, min_lat, max_lon, max_lat from ${sql.table(table)}
    order by 1`.execute(db);
  return rows.map((row) => ({ id: Number(row.id), box: [row.min_lon, row.min_lat, row.max_lon, row.max_lat] }));
}

/** The ids the spatial index finds meeting `box`; in `db`, a transaction, when given. */
async function foundAt(table: Table, box: BBox, db: Kysely<Schema> = test.database.db): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select ${sql.ref(KEY[table])} as id from ${sql.table(table)}
    where ${bboxMeets(test.database.dialect, table, box)}`.execute(db);
  return rows.map((row) => Number(row.id));
}

/** Every row is found at its own box, and the index holds no entry beside them. */
async function expectIndexed(table: Table): Promise<void> {
  const rows = await rowsOf(table);
  for (const { id, box } of rows) expect(await foundAt(table, box)).toContain(id);
  if (test.database.dialect === "sqlite") {
    const { rows: entries } = await sql<{
      n: number;
    }>`select count(*) as n from ${sql.table(`${table}_rtree`)}`.execute(test.database.db);
    expect(Number(entries[0]?.n)).toBe(rows.length);
  }
}

async function triggers(): Promise<string[]> {
  if (test.database.dialect !== "sqlite") return [];
  const { rows } = await sql<{ definition: string }>`
    select sql as definition from sqlite_master where type = 'trigger' order by name`.execute(test.database.db);
  return rows.map((row) => row.definition);
}

describe("the spatial index of an import's rows", () => {
  it("holds every row a first load, a later load and a refused load leave", async () => {
    const before = await triggers();
    const importBuildings = (file: string, rules = {}) =>
      importFile(test.database, { kind: "buildings", file, name: "footprints", idField: "BID", rules });

    await importFile(test.database, {
      kind: "parcels",
      file: fileOf("parcels.geojsonl", squares("APN", "P", 0, 300, 0.0009)),
      name: "lots",
      idField: "APN",
    });
    await importBuildings(fileOf("buildings-1.geojsonl", squares("BID", "B", 0, 300, 0.0004)));
    await expectIndexed("parcels");
    await expectIndexed("buildings");
    expect(await triggers()).toEqual(before);

    // Again with 30 footprints moved far east, 60 new ones, and the last 50 gone.
    const moved = new Set(Array.from({ length: 30 }, (_, i) => i * 7));
    const [{ box: oldBox }] = (await rowsOf("buildings")).slice(0, 1) as [Entry];
    await importBuildings(
      fileOf("buildings-2.geojsonl", [
        ...squares("BID", "B", 0, 250, 0.0004, moved),
        ...squares("BID", "N", 300, 60, 0.0004),
      ]),
    );
    await expectIndexed("buildings");
    const movedId = await sql<{ id: number }>`select building_id as id from buildings where source_id = 'B-0'`.execute(
      test.database.db,
    );
    expect(await foundAt("buildings", oldBox)).not.toContain(Number(movedId.rows[0]?.id));
    expect(await triggers()).toEqual(before);

    // A load refused for its rejections leaves the index and its triggers as they were.
    const entries = await rowsOf("buildings");
    const lines = [
      ...squares("BID", "X", 400, 5, 0.0004),
      ...Array.from({ length: 20 }, (_, i) => squareFeature("BID", `Z-${i}`, -97, 41, 0)),
    ];
    await expect(importBuildings(fileOf("buildings-3.geojsonl", lines), { maxRejected: 0.1 })).rejects.toThrow(
      ImportRefusedError,
    );
    expect(await rowsOf("buildings")).toEqual(entries);
    await expectIndexed("buildings");
    expect(await triggers()).toEqual(before);
  });
});

/** A ring of `vertices` positions about (`lon`, `lat`), large enough to be stored cut into parts. */
function circleFeature(id: string, lon: number, lat: number, vertices: number): string {
  const ring = Array.from({ length: vertices }, (_, i): [number, number] => {
    const turn = (2 * Math.PI * i) / vertices;
    return [lon + 0.01 * Math.cos(turn), lat + 0.01 * Math.sin(turn)];
  });
  return JSON.stringify({
    type: "Feature",
    properties: { ZONE: id },
    geometry: { type: "Polygon", coordinates: [[...ring, ring[0]]] },
  });
}

/** The R*Tree's entries of `table`, by id; in `db`, a transaction, when given. */
async function entriesOf(
  table: Table | "layer_features" | "layer_parts",
  db: Kysely<Schema> = test.database.db,
): Promise<unknown[]> {
  const { rows } = await sql`select * from ${sql.table(`${table}_rtree`)} order by id`.execute(db);
  return rows;
}

describe("the spatial index of a layer import's features and parts", () => {
  it("finds every feature in its layer at its box, with the entries the triggers write", async () => {
    const before = await triggers();
    const importLayer = (name: string, lines: string[]) =>
      importFile(test.database, { kind: "layer", file: fileOf(`${name}.geojsonl`, lines), name, idField: "ZONE" });
    const zones = (count: number, east = 0) =>
      Array.from({ length: count }, (_, i) => circleFeature(`Z-${i}`, -96 + i * 0.03 + east, 41, 400));
    const hydrants = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({
        type: "Feature",
        properties: { ZONE: `H-${i}` },
        geometry: { type: "Point", coordinates: [-97 + (i % 20) * 0.001, 40 + Math.floor(i / 20) * 0.001] },
      }),
    );
    await importLayer("hydrants", hydrants);
    await importLayer("zones", zones(12));
    // Again, with every zone but the first six moved east and two more: parts replaced, features updated and added.
    const again = await importLayer("zones", [...zones(6), ...zones(14, 0.5).slice(6)]);
    expect(again).toMatchObject({ unchanged: 6, updated: 6, imported: 2 });
    expect(await triggers()).toEqual(before);

    const { rows } = await sql<{ id: number; dataset_id: number } & Record<string, number>>`
      select feature_id as id, dataset_id, min_lon, min_lat, max_lon, max_lat, part_count from layer_features`.execute(
      test.database.db,
    );
    expect(rows.length).toBe(214);
    expect(rows.filter((row) => Number(row.part_count) > 0)).toHaveLength(14);
    for (const row of rows) {
      const box: BBox = [row.min_lon, row.min_lat, row.max_lon, row.max_lat].map(Number) as BBox;
      const inLayer = layerBBoxMeets(test.database.dialect, [row.dataset_id], box);
      const { rows: found } = await sql<{ id: number }>`select feature_id as id from layer_features
        where dataset_id = ${row.dataset_id} and ${inLayer}`.execute(test.database.db);
      expect(found.map((entry) => Number(entry.id))).toContain(Number(row.id));
    }
    if (test.database.dialect !== "sqlite") return;
    // Each row written through its update trigger again (a delete and the same put as the insert trigger's): the
    // entries entered at the import's end must be what the triggers would have written.
    for (const [table, column] of [
      ["layer_features", "dataset_id"],
      ["layer_parts", "min_lon"],
    ] as const) {
      const entered = await entriesOf(table);
      expect(entered.length).toBe(await countOf(table));
      await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)}`.execute(test.database.db);
      expect(await entriesOf(table)).toEqual(entered);
    }
  });
});

async function countOf(table: "layer_features" | "layer_parts"): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(test.database.db);
  return Number(rows[0]?.n);
}

describe("rows entered into the spatial index before an import's end", () => {
  it("are kept right by the triggers after, and the rest entered at the end", async () => {
    const before = await triggers();
    await importFile(test.database, {
      kind: "buildings",
      file: fileOf("copied.geojsonl", squares("BID", "C", 2000, 40, 0.0004)),
      name: "copied footprints",
      idField: "BID",
    });
    const rollBack = new Error("rolled back");
    const done = test.database.db.transaction().execute(async (trx) => {
      const context = { trx, dialect: test.database.dialect };
      const index = await DeferredSpatialIndex.begin(context, "buildings");
      if (!index) {
        expect(test.database.dialect).toBe("postgres");
        throw rollBack;
      }
      const originals = await rowsOf("buildings", trx);
      const lastOriginal = Math.max(...originals.map((row) => row.id));

      const firstCopies = await copyBuildings(trx, lastOriginal, "-a", 1);
      for (const { id, box } of firstCopies) expect(await foundAt("buildings", box, trx)).not.toContain(id);
      await index.catchUp(context);
      for (const { id, box } of firstCopies) expect(await foundAt("buildings", box, trx)).toContain(id);

      // An entered row moved and one removed: their entries follow through the triggers.
      const [moved, removed] = firstCopies as [Entry, Entry];
      await sql`update buildings set min_lat = min_lat + 0.5, max_lat = max_lat + 0.5
        where building_id = ${moved.id}`.execute(trx);
      expect(await foundAt("buildings", moved.box, trx)).not.toContain(moved.id);
      await sql`delete from buildings where building_id = ${removed.id}`.execute(trx);

      // Rows added after, one moved before it is entered: entered at the end with its last box.
      const [movedLater] = (await copyBuildings(trx, lastOriginal, "-b", 2)) as [Entry];
      await sql`update buildings set min_lon = min_lon + 0.5, max_lon = max_lon + 0.5
        where building_id = ${movedLater.id}`.execute(trx);
      await index.end(context);

      const rows = await rowsOf("buildings", trx);
      expect(rows).toHaveLength(3 * originals.length - 1);
      for (const { id, box } of rows) expect(await foundAt("buildings", box, trx)).toContain(id);
      expect(await foundAt("buildings", movedLater.box, trx)).not.toContain(movedLater.id);
      const entered = await entriesOf("buildings", trx);
      expect(entered).toHaveLength(rows.length);
      // What the triggers would have written: every row written again through its update trigger.
      await sql`update buildings set min_lon = min_lon`.execute(trx);
      expect(await entriesOf("buildings", trx)).toEqual(entered);
      throw rollBack;
    });
    await expect(done).rejects.toBe(rollBack);
    expect(await triggers()).toEqual(before);
    await expectIndexed("buildings");
  });
});

/**
 * Copies of the buildings of ids up to `lastOriginal`, `east` degrees east and their source ids suffixed, added
 * as an import adds rows; answers the copies' ids and boxes.
 */
async function copyBuildings(trx: Kysely<Schema>, lastOriginal: number, suffix: string, east: number) {
  const { rows: columns } = await sql<{ name: string }>`select name from pragma_table_info('buildings')`.execute(trx);
  const names = columns.map((column) => column.name).filter((name) => name !== "building_id");
  const values = names.map((name) => {
    if (name === "source_id") return sql`source_id || ${suffix}`;
    if (name === "min_lon" || name === "max_lon") return sql`${sql.ref(name)} + ${east}`;
    return sql.ref(name);
  });
  const first = Math.max(...(await rowsOf("buildings", trx)).map((row) => row.id));
  await sql`insert into buildings (${sql.join(names.map((name) => sql.ref(name)))})
    select ${sql.join(values)} from buildings where building_id <= ${lastOriginal}`.execute(trx);
  return (await rowsOf("buildings", trx)).filter((row) => row.id > first);
}
