/**
 * `npm run bench:geo`: how fast geodata imports and address lookups run, each beside a baseline measured in the
 * same run on the same machine, so the figures mean something on any hardware:
 *
 *   1. reading the Cambridge buildings shapefile, nothing else               ← baseline of 2
 *   2. importing it (validation, areas, parcel assignment, one transaction), over the Cambridge parcels
 *   3. reading a generated GeoJSONSeq file of BENCH_FOOTPRINTS footprints    ← baseline of 4
 *   4. importing that file
 *   5. fetching an address row by its primary key                            ← baseline of 6
 *   6. address text → scored candidates → parcel → its buildings
 *   7. distance to the coast, scoring every block of 64 coast edges as it once did  ← baseline of 8
 *   8. distance to the coast (ball tree over the edges, land cut into latitude bands)
 *   9. the area of every Cambridge parcel and building by GeographicLib's PolygonArea ← baseline of 10
 *  10. the same areas as imports measure them (on the tangent plane)
 *
 * SQLite in a temporary folder by default; BENCH_DATABASE_URL=postgres://… runs on PostgreSQL in a throwaway
 * schema. Needs ../shared/data/cambridge beside the repository. BENCH_FOOTPRINTS defaults to 1,000,000.
 */

import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { openDatabase } from "../dist/db/database.js";
import { migrateToLatest } from "../dist/db/migrate.js";
import { geographicLibArea } from "../dist/geo/geometry/geodesic-area.js";
import { bboxOf, containsPoint, distanceToGeometry, geodesicArea } from "../dist/geo/geometry/index.js";
import { importFile } from "../dist/geo/import/import-file.js";
import { locateAddress } from "../dist/geo/locate/locate-address.js";
import { buildingsOfParcel } from "../dist/geo/queries/buildings-of-parcel.js";
import { readSource } from "../dist/geo/readers/index.js";
import { ADDRESS_PART_COLUMNS, addressLine } from "../dist/geo/store/address-line.js";
import { candidateLimit } from "../dist/products/location/candidate-limit.js";
import { chordToSegment } from "../dist/products/location/chord-to-segment.js";
import { coastDistance } from "../dist/products/location/coastline.js";
import { coastline } from "../dist/products/location/coastline-atlas.js";
import { unitVector } from "../dist/products/location/unit-vector.js";

const DATA = fileURLToPath(new URL("../../../../shared/data/cambridge/", import.meta.url));
const FOOTPRINTS = Number(process.env.BENCH_FOOTPRINTS ?? 1_000_000);
const LOOKUP_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const print = (line = "") => process.stdout.write(`${line}\n`);

if (!existsSync(DATA)) {
  print(`bench:geo needs the Cambridge data at ${DATA}`);
  process.exit(1);
}

const folder = mkdtempSync(join(tmpdir(), "lotline-geo-bench-"));
const { database, cleanup } = await openBenchDatabase();
const rows = [];
try {
  await migrateToLatest(database);
  await importFile(database, { kind: "parcels", file: join(DATA, "parcels-fy2014.topojson"), idField: "ML" });
  await importFile(database, {
    kind: "addresses",
    file: join(DATA, "assessor-fy2014.csv"),
    addressColumn: "Location",
    joinParcel: "ML",
    city: "Cambridge",
    state: "MA",
  });

  const buildingsFile = join(DATA, "buildings-east-cambridge", "Buildings.shp");
  const readBuildings = await timed(() => countRecords(buildingsFile));
  rows.push(row("1. read Cambridge buildings (baseline)", readBuildings.result, readBuildings.seconds));
  const importBuildings = await timed(() => importFile(database, { kind: "buildings", file: buildingsFile }));
  rows.push(row("2. import Cambridge buildings", importBuildings.result.read, importBuildings.seconds, rows[0]));

  const generated = join(folder, "footprints.geojsonl");
  await writeFootprints(generated, FOOTPRINTS);
  const readGenerated = await timed(() => countRecords(generated));
  rows.push(
    row(
      `3. read ${FOOTPRINTS.toLocaleString("en")} footprints (baseline)`,
      readGenerated.result,
      readGenerated.seconds,
    ),
  );
  const importGenerated = await timed(() =>
    importFile(database, { kind: "buildings", file: generated, name: "generated footprints", idField: "id" }),
  );
  rows.push(
    row(
      `4. import ${FOOTPRINTS.toLocaleString("en")} footprints`,
      importGenerated.result.read,
      importGenerated.seconds,
      rows[2],
    ),
  );

  const samples = await database.db
    .selectFrom("addresses")
    .select(["address_id", ...ADDRESS_PART_COLUMNS])
    .where("parcel_id", "is not", null)
    .orderBy("address_id")
    .limit(2000)
    .execute();
  let next = 0;
  const byKey = await perSecond(LOOKUP_SECONDS, async () => {
    const sample = samples[next++ % samples.length];
    await database.db
      .selectFrom("addresses")
      .selectAll()
      .where("address_id", "=", sample.address_id)
      .executeTakeFirst();
  });
  rows.push(row("5. address row by primary key (baseline)", byKey.count, byKey.seconds));
  let found = 0;
  const lookups = await perSecond(LOOKUP_SECONDS, async () => {
    const sample = samples[next++ % samples.length];
    const [best] = await locateAddress(database, addressLine(sample).split(",")[0], 5);
    if (best?.parcel_id) {
      await buildingsOfParcel(database, best.parcel_id);
      found += 1;
    }
  });
  rows.push(row("6. address → candidates → parcel → buildings", lookups.count, lookups.seconds, rows[4]));

  const scoringEveryBlock = await blockScan();
  const places = worldPoints(1000);
  const everyBlock = await perSecond(LOOKUP_SECONDS, () => scoringEveryBlock(places[next++ % places.length]));
  rows.push(row("7. coast distance, every block scored (baseline)", everyBlock.count, everyBlock.seconds));
  const coast = await perSecond(LOOKUP_SECONDS, () => coastDistance(places[next++ % places.length]));
  rows.push(row("8. coast distance, ball tree", coast.count, coast.seconds, rows[6]));

  const areas = [];
  for (const file of [join(DATA, "parcels-fy2014.topojson"), buildingsFile]) {
    for await (const record of readSource(file)) {
      const geometry = record.feature?.geometry;
      if (geometry?.type === "Polygon" || geometry?.type === "MultiPolygon") areas.push(geometry);
    }
  }
  const byGeographicLib = await perSecond(LOOKUP_SECONDS, () => geographicLibArea(areas[next++ % areas.length]));
  rows.push(row("9. areas, GeographicLib PolygonArea (baseline)", byGeographicLib.count, byGeographicLib.seconds));
  const onPlane = await perSecond(LOOKUP_SECONDS, () => geodesicArea(areas[next++ % areas.length]));
  rows.push(row("10. areas, tangent plane (as imports measure)", onPlane.count, onPlane.seconds, rows[8]));

  print(
    `lotline geo bench: node ${process.version}, load average ${loadavg()[0].toFixed(2)}, database ${database.dialect}`,
  );
  print();
  print(
    `${"measurement".padEnd(48)}  ${"items".padStart(9)}  ${"seconds".padStart(8)}  ${"per second".padStart(11)}  vs baseline`,
  );
  print(`${"-".repeat(48)}  ${"-".repeat(9)}  ${"-".repeat(8)}  ${"-".repeat(11)}  -----------`);
  for (const r of rows) {
    print(
      `${r.label.padEnd(48)}  ${String(r.items).padStart(9)}  ${r.seconds.toFixed(2).padStart(8)}  ${Math.round(r.rate).toString().padStart(11)}  ${r.ratio}`,
    );
  }
  print();
  print(`${found} of ${lookups.count} lookups found their parcel; every lookup's first candidate was scored.`);
} finally {
  await cleanup();
  rmSync(folder, { recursive: true, force: true });
}

function row(label, items, seconds, baseline) {
  const rate = items / seconds;
  return {
    label,
    items,
    seconds,
    rate,
    ratio: baseline ? `${(rate / baseline.rate).toFixed(3)} × ${baseline.label.slice(0, 2)}` : "",
  };
}

async function timed(work) {
  const start = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - start) / 1000 };
}

async function perSecond(seconds, work) {
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  let count = 0;
  while (performance.now() < end) {
    await work();
    count += 1;
  }
  return { count, seconds: (performance.now() - start) / 1000 };
}

async function countRecords(file) {
  let count = 0;
  for await (const _record of readSource(file)) count += 1;
  return count;
}

/** Deterministic rectangles of 8–20 m on a grid over about 40 × 40 km of Kansas farmland, one per line. */
async function writeFootprints(file, count) {
  const out = createWriteStream(file);
  let seed = 42;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
  const columns = Math.ceil(Math.sqrt(count));
  const step = 0.0004;
  for (let i = 0; i < count; i++) {
    const lon = -98 + (i % columns) * step + random() * 0.0001;
    const lat = 38 + Math.floor(i / columns) * step + random() * 0.0001;
    const w = 0.0001 + random() * 0.00012;
    const h = 0.00007 + random() * 0.0001;
    const ring = [
      [lon, lat],
      [lon + w, lat],
      [lon + w, lat + h],
      [lon, lat + h],
      [lon, lat],
    ];
    const line = `{"type":"Feature","properties":{"id":"G${i}"},"geometry":{"type":"Polygon","coordinates":${JSON.stringify([ring])}}}\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once("drain", resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
}

/** Points spread evenly over the globe, the same on every run: mostly sea, about a third land. */
function worldPoints(count) {
  let seed = 7;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
  return Array.from({ length: count }, () => [random() * 360 - 180, (Math.asin(random() * 2 - 1) * 180) / Math.PI]);
}

/**
 * coastDistance as it was before its ball tree and latitude bands, for the baseline: a ball around each run of 64
 * edges, every ball scored and sorted per look-up, and every land polygon whose box holds the point tested whole.
 */
async function blockScan() {
  const BLOCK = 64;
  const { lonLat, xyz, edges, landPolygons } = await coastline();
  const land = landPolygons.map((polygon) => ({ polygon, bbox: bboxOf(polygon) }));
  const blockCount = Math.ceil(edges.length / BLOCK);
  const edgesOf = (block) => edges.subarray(block * BLOCK, Math.min(edges.length, (block + 1) * BLOCK));
  const balls = Array.from({ length: blockCount }, (_, block) => {
    const vertices = [...edgesOf(block)].flatMap((a) => [a, a + 1]);
    const centre = [0, 1, 2].map((k) => vertices.reduce((sum, v) => sum + xyz[v * 3 + k], 0) / vertices.length);
    const distance = (v) => Math.hypot(xyz[v * 3] - centre[0], xyz[v * 3 + 1] - centre[1], xyz[v * 3 + 2] - centre[2]);
    return { centre, radius: Math.max(...vertices.map(distance)) };
  });
  return (point) => {
    const p = unitVector(point[0], point[1]);
    const bounds = balls.map(({ centre, radius }) =>
      Math.max(0, Math.hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]) - radius),
    );
    const order = Array.from({ length: blockCount }, (_, b) => b).sort((a, b) => bounds[a] - bounds[b]);
    let least = Number.POSITIVE_INFINITY;
    for (const block of order) {
      if (bounds[block] > least) break;
      for (const a of edgesOf(block)) least = Math.min(least, chordToSegment(p, xyz, a, a + 1));
    }
    const limit = candidateLimit(least);
    const candidates = [];
    for (const block of order) {
      if (bounds[block] > limit) break;
      for (const a of edgesOf(block)) {
        if (chordToSegment(p, xyz, a, a + 1) > limit) continue;
        candidates.push([lonLat.slice(a * 2, a * 2 + 2), lonLat.slice(a * 2 + 2, a * 2 + 4)].map((ll) => [...ll]));
      }
    }
    const [lon, lat] = point;
    return {
      distanceM: distanceToGeometry(point, { type: "MultiLineString", coordinates: candidates }),
      onLand: land.some(
        ({ polygon, bbox }) =>
          lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3] && containsPoint(polygon, point),
      ),
    };
  };
}

async function openBenchDatabase() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const database = openDatabase(`sqlite:${join(folder, "bench.db")}`);
    return { database, cleanup: () => database.close() };
  }
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const admin = openDatabase(url);
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const database = openDatabase(url, { searchPath: schema });
  return {
    database,
    cleanup: async () => {
      await database.close();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    },
  };
}
