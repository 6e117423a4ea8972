import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { rectangle } from "../geometry/test-shapes.js";
import type { BBox } from "../types.js";
import { CandidateParcels } from "./candidate-parcels.js";
import { importFile } from "./import-file.js";

/**
 * The candidates of a footprint come from parcel boxes kept by map cell; they must be exactly the parcels the
 * spatial index finds, whatever the box: inside a cell, across cell lines, on a lot's very edge, wider than the
 * cells looked among, and after cells were forgotten to stay within the bound.
 */

let folder: string;
let test: TestDatabase;
/** Every parcel's id and box as the spatial index holds it. */
let indexed: Array<{ id: number; box: BBox }>;

const WEST = -71.2;
const SOUTH = 42.3;
const LOT = 0.001;
const FAR_LOTS = [
  ["FAR-1", -97.0005, -59.9995],
  ["FAR-2", -97.0005, -59.9995 + 131.072],
  ["FAR-3", -170.0005, 10.0005],
  ["FAR-4", -170.0005 + 131.072, 10.0005],
] as const;

const rectangleFeature = (id: string, x: number, y: number, width: number, height: number) =>
  JSON.stringify({ type: "Feature", properties: { APN: id }, geometry: rectangle(x, y, x + width, y + height) });

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "lotline-candidates-"));
  test = await createTestDatabase();
  // 40 × 30 lots edge to edge across some 100 cells, and a park over a few dozen of them.
  const lines = [];
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < 30; j++) lines.push(rectangleFeature(`L-${i}-${j}`, WEST + i * LOT, SOUTH + j * LOT, LOT, LOT));
  }
  lines.push(rectangleFeature("PARK", WEST + 0.0105, SOUTH + 0.0055, 0.017, 0.013));
  // Two lots 2¹⁵ cells apart in latitude, and two in longitude: cells that a key kept to 15 bits would confuse.
  for (const [id, x, y] of FAR_LOTS) lines.push(rectangleFeature(id, x, y, LOT, LOT));
  const file = join(folder, "parcels.geojsonl");
  writeFileSync(file, lines.join("\n"));
  await importFile(test.database, { kind: "parcels", file, name: "lots", idField: "APN" });
  const { db, dialect } = test.database;
  const rows =
    dialect === "sqlite"
      ? await sql<{ id: number; min_lon: number; min_lat: number; max_lon: number; max_lat: number }>`
          select id, min_lon, min_lat, max_lon, max_lat from parcels_rtree`.execute(db)
      : await sql<{ id: number; min_lon: number; min_lat: number; max_lon: number; max_lat: number }>`
          select parcel_id as id, min_lon, min_lat, max_lon, max_lat from parcels`.execute(db);
  indexed = rows.rows.map((row) => ({
    id: Number(row.id),
    box: [row.min_lon, row.min_lat, row.max_lon, row.max_lat],
  }));
});
afterAll(async () => {
  await test?.destroy();
  rmSync(folder, { recursive: true, force: true });
});

/** The parcels whose indexed boxes meet `box`, ascending: what the candidates must be. */
function meetingByHand([minLon, minLat, maxLon, maxLat]: BBox): number[] {
  return indexed
    .filter(({ box }) => box[0] <= maxLon && box[2] >= minLon && box[1] <= maxLat && box[3] >= minLat)
    .map(({ id }) => id)
    .sort((a, b) => a - b);
}

/** A repeatable sequence of boxes of every kind over the lots. */
function boxes(count: number): BBox[] {
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const found: BBox[] = [];
  for (let n = 0; n < count; n++) {
    const kind = n % 5;
    const x = WEST - 0.002 + random() * 0.044;
    const y = SOUTH - 0.002 + random() * 0.034;
    if (kind === 0) {
      // A footprint within a lot or two.
      found.push([x, y, x + random() * 0.0003, y + random() * 0.0003]);
    } else if (kind === 1) {
      // A lot's own box, its edges on its neighbours'.
      const lot = indexed[Math.floor(random() * indexed.length)] as { box: BBox };
      found.push([...lot.box]);
    } else if (kind === 2) {
      // Across a cell line or several.
      found.push([x, y, x + 0.004 + random() * 0.006, y + 0.002 + random() * 0.004]);
    } else if (kind === 3) {
      // Touching a lot at its south-west corner only, to the last digit: it meets the lot.
      const [west, south] = (indexed[Math.floor(random() * indexed.length)] as { box: BBox }).box;
      found.push([west - 0.0002, south - 0.0002, west, south]);
    } else {
      // Wider than the cells looked among.
      found.push([x - 0.01, y - 0.01, x + 0.02, y + 0.012]);
    }
  }
  return found;
}

describe("a footprint's candidate parcels", () => {
  it("are the parcels the spatial index finds, box by box", async () => {
    const candidates = new CandidateParcels({ db: test.database.db, dialect: test.database.dialect });
    const all = boxes(400);
    for (let start = 0; start < all.length; start += 50) {
      const chunk = all.slice(start, start + 50);
      expect(await candidates.meeting(chunk)).toEqual(chunk.map(meetingByHand));
    }
    // Boxes across cells and wide ones meet the park, which lies in many cells, once each.
    expect(all.some((box) => meetingByHand(box).length > 100)).toBe(true);
  });

  it("stay the same when cells are forgotten to stay within the bound", async () => {
    const candidates = new CandidateParcels({ db: test.database.db, dialect: test.database.dialect }, 150);
    const all = boxes(400);
    for (let round = 0; round < 2; round++) {
      for (let start = 0; start < all.length; start += 20) {
        const chunk = all.slice(start, start + 20);
        expect(await candidates.meeting(chunk)).toEqual(chunk.map(meetingByHand));
      }
    }
  });

  it("are the parcels of their own cell, wherever on Earth", async () => {
    const candidates = new CandidateParcels({ db: test.database.db, dialect: test.database.dialect });
    for (const [, x, y] of FAR_LOTS) {
      const box: BBox = [x + 0.0002, y + 0.0002, x + 0.0003, y + 0.0003];
      const [found] = await candidates.meeting([box]);
      expect(found).toEqual(meetingByHand(box));
      expect(found).toHaveLength(1);
    }
  });

  it("are none away from every parcel", async () => {
    const candidates = new CandidateParcels({ db: test.database.db, dialect: test.database.dialect });
    expect(await candidates.meeting([[-80, 30, -79.999, 30.001]])).toEqual([[]]);
  });
});
