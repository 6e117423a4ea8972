/**
 * `npm run bench:scale`: Lotline at a state's size, beside the field's reference tools on the same files in the
 * same run. Cambridge's real parcels, buildings, assessor addresses and layers are tiled BENCH_TILES times (77 by
 * default: 1.01 M parcels, 1.06 M buildings; see `scale-data.js`), then:
 *
 *   1. imported by `lotline import` (the CLI, one process per file), timed, with its peak memory;
 *   2. loaded by ogr2ogr into a GeoPackage                        ← the baseline of 1 on SQLite;
 *   3. loaded by ogr2ogr into PostGIS, plus the SQL doing the rest of Lotline's work (repairs, geodesic areas,
 *      buildings' and addresses' parcels)                          ← the baseline of 1 on PostgreSQL;
 *   4. the database's size, beside the GeoPackage's and PostGIS's;
 *   5. BENCH_ORDERS orders (300) by location, each processed alone, over one tile (13 k parcels) and over all of
 *      them — at the same points, so that only the data grows, and at points in every tile, so that the caches
 *      meet new data at every order — beside the same lookups done in PostGIS; in BENCH_ORDER_ROUNDS rounds (5),
 *      the three sizes taken in turns in each, since one round of orders can cost twice the next on this machine.
 *
 * SQLite in a temporary folder by default; BENCH_DATABASE_URL=postgres://… runs Lotline on PostgreSQL in a
 * throwaway schema. PostGIS is looked for at BENCH_POSTGIS_URL (default: BENCH_DATABASE_URL, else the local
 * server); a reference tool that is missing is named and its columns left empty. Needs ../shared/data/cambridge
 * beside the repository.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { positiveInteger, print, printTable } from "../../../scripts/bench-kit.js";
import { migrateToLatest } from "../dist/db/migrate.js";
import { LAYERS, orderPoints, tileOffset, writeTiledDataset } from "./scale-data.js";
import { hasOgr2ogr, hasPostgis, ogrToGeoPackage, ogrToPostgis, postgisLookups, timed } from "./scale-reference.js";
import { prepareDatabase } from "./served.js";

const DATA = fileURLToPath(new URL("../../../../shared/data/cambridge/", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/lotline.js", import.meta.url));
const ORDERS_SCRIPT = fileURLToPath(new URL("./scale-orders.js", import.meta.url));
const TILES = positiveInteger("BENCH_TILES", 77);
const ORDERS = positiveInteger("BENCH_ORDERS", 300);
const WARM_UP_ORDERS = 30;
const ORDER_ROUNDS = positiveInteger("BENCH_ORDER_ROUNDS", 5);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const POSTGIS_URL = process.env.BENCH_POSTGIS_URL ?? DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const KINDS = ["parcels", "buildings", "addresses", "layers"];
/** The heap cap the README asks imports to run with (see "Memory" there). */
const IMPORT_HEAP_MB = 256;

if (!existsSync(DATA)) {
  print(`bench:scale needs the Cambridge data at ${DATA}`);
  process.exit(1);
}

/** `lotline import` of every file, each in its own CLI process: seconds and records by kind, peak memory. */
async function lotlineImport(url, files) {
  const env = { ...process.env, LOTLINE_DATABASE_URL: url, LOTLINE_LOG_LEVEL: "error" };
  const run = (args) =>
    timed(process.execPath, [`--max-old-space-size=${IMPORT_HEAP_MB}`, BIN, "import", ...args, "--json"], env);
  const jobs = [
    { kind: "parcels", args: ["parcels", files.parcels, "--id-field", "ML", "--name", "Scale parcels"] },
    { kind: "buildings", args: ["buildings", files.buildings, "--id-field", "BID", "--name", "Scale buildings"] },
    {
      kind: "addresses",
      args: [
        "addresses",
        files.addresses,
        "--address-column",
        "Location",
        "--join-parcel",
        "ML",
        "--name",
        "Scale addresses",
      ],
    },
    ...files.layers.map((layer) => ({ kind: "layers", args: ["layer", layer.file, "--name", layer.name] })),
  ];
  const seconds = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  const records = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  let peakMb = 0;
  for (const job of jobs) {
    const result = await run(job.args);
    const summary = JSON.parse(result.stdout);
    seconds[job.kind] += result.seconds;
    records[job.kind] += summary.read;
    peakMb = Math.max(peakMb, result.peakMb);
  }
  return { seconds, records, peakMb };
}

/** The bytes a Lotline database takes: the SQLite file and its log, or the PostgreSQL schema's relations. */
async function databaseBytes(prepared, folder) {
  if (!DATABASE_URL) {
    return ["lotline.db", "lotline.db-wal"].reduce((sum, name) => {
      const path = join(folder, name);
      return sum + (existsSync(path) ? statSync(path).size : 0);
    }, 0);
  }
  const { rows } = await sql`
    select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'`.execute(
    prepared.database.db,
  );
  return Number(rows[0].bytes);
}

/** The points moved into the tiles round robin, so that a big dataset's orders are spread over all of it. */
function spread(points, tiles) {
  return points.map(([lon, lat], i) => {
    const offset = tileOffset(i % tiles, tiles);
    return [lon + offset.lon, lat + offset.lat];
  });
}

/**
 * The mean milliseconds (wall) and CPU milliseconds of `process_order` over the database at `url`, after
 * `WARM_UP_ORDERS` not counted, in a process of its own (see `scale-orders.js`).
 */
async function orderCosts(url, points, folder) {
  const file = join(folder, `points-${crypto.randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(points));
  const { stdout } = await timed(process.execPath, [ORDERS_SCRIPT, url, file, String(WARM_UP_ORDERS)]);
  const { wall, cpu, complete } = JSON.parse(stdout);
  return { wall: mean(wall), cpu: mean(cpu), complete };
}

/** The mean milliseconds of the PostGIS lookups of an order, after `WARM_UP_ORDERS` not counted. */
async function postgisCosts(client, points) {
  return { wall: mean((await postgisLookups(client, points)).slice(WARM_UP_ORDERS)) };
}

/**
 * The measurements of `sizes` (1 tile, all tiles at the same points, all tiles at points in every tile) in
 * `ORDER_ROUNDS` rounds, the sizes in turns within each: for each size, the median of its rounds' means, and, for
 * each size but the first, the median and range of its rounds' ratios to the first size of the same round.
 */
async function inRounds(sizes) {
  const rounds = [];
  for (let round = 0; round < ORDER_ROUNDS; round++) {
    const measured = [];
    for (const measure of sizes) measured.push(await measure());
    rounds.push(measured);
  }
  return sizes.map((_, size) => {
    const medianOf = (key) =>
      rounds[0][size][key] === undefined ? undefined : median(rounds.map((round) => round[size][key]));
    const ratios = rounds.map((round) => round[size].wall / round[0].wall);
    return {
      wall: medianOf("wall"),
      cpu: medianOf("cpu"),
      complete: Math.min(...rounds.map((round) => round[size].complete ?? 0)),
      ratio: { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) },
    };
  });
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const seconds = (value) => (value === undefined ? "" : value.toFixed(1));
const ratio = (ours, reference) => (reference ? `${(ours / reference).toFixed(2)} ×` : "");
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "lotline-scale-bench-"));
  const cleanups = [() => rmSync(folder, { recursive: true, force: true })];
  try {
    print(
      `lotline scale bench: node ${process.version}, ${availableParallelism()} CPUs (load average ` +
        `${loadavg()[0].toFixed(2)}), ${TILES} tiles of Cambridge; Lotline on ${DATABASE_URL ? "PostgreSQL" : "SQLite"}`,
    );
    const generating = performance.now();
    mkdirSync(join(folder, "one"));
    mkdirSync(join(folder, "all"));
    const one = await writeTiledDataset(DATA, join(folder, "one"), 1);
    const all = await writeTiledDataset(DATA, join(folder, "all"), TILES);
    print(
      `generated in ${((performance.now() - generating) / 1000).toFixed(0)} s: ${all.counts.parcels} parcels, ` +
        `${all.counts.buildings} buildings, ${all.counts.addresses} address rows, ${all.counts.layers} layer ` +
        `features (${LAYERS.length} layers)`,
    );

    const small = await prepareDatabase(join(folder, "one"), DATABASE_URL);
    const big = await prepareDatabase(join(folder, "all"), DATABASE_URL);
    for (const prepared of [small, big]) {
      cleanups.unshift(prepared.drop);
      cleanups.unshift(() => prepared.database.close());
      await migrateToLatest(prepared.database);
    }
    await lotlineImport(small.url, one.files);
    const ours = await lotlineImport(big.url, all.files);
    print(`Lotline imported ${Object.values(ours.records).reduce((a, b) => a + b, 0)} records`);
    const ourBytes = await databaseBytes(big, join(folder, "all"));

    const points = await orderPoints(DATA, ORDERS + WARM_UP_ORDERS);
    const spreadPoints = spread(points, TILES);
    const [smallOrders, bigOrders, spreadOrders] = await inRounds([
      () => orderCosts(small.url, points, folder),
      () => orderCosts(big.url, points, folder),
      () => orderCosts(big.url, spreadPoints, folder),
    ]);

    let geoPackage;
    if (hasOgr2ogr()) geoPackage = await ogrToGeoPackage(all.files, join(folder, "reference.gpkg"));
    else print("ogr2ogr is not installed (Debian gdal-bin): no GeoPackage column");

    let postgis;
    if (hasOgr2ogr() && (await hasPostgis(POSTGIS_URL))) {
      const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 10);
      const schemas = [`scale_one_${suffix}`, `scale_all_${suffix}`];
      cleanups.unshift(async () => {
        const { default: pg } = await import("pg");
        const admin = new pg.Client({ connectionString: POSTGIS_URL });
        await admin.connect();
        for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      });
      const smallPostgis = await ogrToPostgis(one.files, POSTGIS_URL, schemas[0]);
      postgis = await ogrToPostgis(all.files, POSTGIS_URL, schemas[1]);
      const { rows } = await postgis.client.query(
        `select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c
         join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
        [schemas[1]],
      );
      postgis.bytes = Number(rows[0].bytes);
      [postgis.smallOrders, postgis.bigOrders, postgis.spreadOrders] = await inRounds([
        () => postgisCosts(smallPostgis.client, points),
        () => postgisCosts(postgis.client, points),
        () => postgisCosts(postgis.client, spreadPoints),
      ]);
      await smallPostgis.client.end();
      await postgis.client.end();
    } else
      print(
        `PostGIS is not available at ${POSTGIS_URL} (Debian postgresql-15-postgis-3), or ogr2ogr is missing: no PostGIS column`,
      );

    const reference = DATABASE_URL ? postgis : geoPackage;
    const referenceName = DATABASE_URL ? "ogr2ogr → PostGIS + SQL" : "ogr2ogr → GeoPackage";
    print();
    const rows = [];
    for (const kind of KINDS) {
      const rate = ours.records[kind] / ours.seconds[kind];
      rows.push([
        `import ${kind}`,
        `${seconds(ours.seconds[kind])} s, ${(rate / 1000).toFixed(1)} k/s`,
        reference ? `${seconds(reference.seconds[kind])} s` : "",
        reference ? ratio(ours.seconds[kind], reference.seconds[kind]) : "",
      ]);
    }
    const total = (times) => KINDS.reduce((sum, kind) => sum + times[kind], 0);
    rows.push([
      "import, all records",
      `${seconds(total(ours.seconds))} s`,
      reference ? `${seconds(total(reference.seconds))} s` : "",
      reference ? ratio(total(ours.seconds), total(reference.seconds)) : "",
    ]);
    rows.push([
      "peak memory of an import",
      `${ours.peakMb.toFixed(0)} MB`,
      reference ? `${reference.peakMb.toFixed(0)} MB (ogr2ogr)` : "",
      "",
    ]);
    rows.push([
      "database size",
      `${mb(ourBytes)} MB`,
      reference?.bytes ? `${mb(reference.bytes)} MB` : "",
      reference?.bytes ? ratio(ourBytes, reference.bytes) : "",
    ]);
    const orderRows = [
      ["per order, 1 tile", smallOrders, postgis?.smallOrders],
      [`per order, ${TILES} tiles, the same points`, bigOrders, postgis?.bigOrders],
      [`per order, ${TILES} tiles, points in every tile`, spreadOrders, postgis?.spreadOrders],
    ];
    const timesOneTile = ({ ratio: { median, low, high } }) =>
      `${median.toFixed(2)} × (rounds ${low.toFixed(2)}–${high.toFixed(2)})`;
    for (const [label, sized, postgisSized] of orderRows) {
      rows.push([
        `${label} (wall; CPU)`,
        `${sized.wall.toFixed(1)} ms; ${sized.cpu.toFixed(1)} ms`,
        postgisSized ? `PostGIS lookups ${postgisSized.wall.toFixed(1)} ms` : "",
        postgisSized ? ratio(sized.wall, postgisSized.wall) : "",
      ]);
    }
    for (const [label, sized, postgisSized] of orderRows.slice(1)) {
      rows.push([
        `  ${label.replace("per order, ", "")} ÷ 1 tile`,
        timesOneTile(sized),
        postgisSized ? timesOneTile(postgisSized) : "",
        "",
      ]);
    }
    printTable(["", "Lotline", referenceName, "ratio"], rows);
    print();
    print(
      `orders: medians of ${ORDER_ROUNDS} rounds' means, the sizes in turns; complete in the round with fewest: ` +
        `${smallOrders.complete}, ${bigOrders.complete} and ${spreadOrders.complete} of ${ORDERS}; ` +
        `GeoPackage ${geoPackage ? `${mb(geoPackage.bytes)} MB, loaded in ${seconds(total(geoPackage.seconds))} s` : "absent"}; ` +
        `PostGIS ${postgis ? `${mb(postgis.bytes)} MB, loaded and worked in ${seconds(total(postgis.seconds))} s` : "absent"}`,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

await main();
