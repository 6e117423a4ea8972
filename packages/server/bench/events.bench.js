/**
 * `npm run bench:events`: how long a catastrophe takes to find in a portfolio. Cambridge's real parcels and
 * buildings are tiled BENCH_TILES times (77 by default: 1.01 M parcels; see `scale-data.js`) and imported; a
 * portfolio of BENCH_PORTFOLIO properties (1,000,000) is generated on them, one per parcel, over ten organizations,
 * one of which monitors; then `lotline import event` reads a county-sized event — one polygon of 20,000 positions,
 * 50 km across, as a hurricane's wind field or a river's flood is drawn — and finds every property it
 * meets, with its share inside and its buildings (on search threads, as the CLI does). The goal is 10 s. The same search runs beside it in PostGIS (the
 * event subdivided, then one SQL statement over the same parcels, buildings and portfolio) when ogr2ogr and the
 * extension are there.
 *
 * Then property changes: BENCH_CHANGED (10,000) of the portfolio's properties are ordered for real (every product),
 * under a layer of flood zones imported first; the layer is imported again with every zone's designation changed,
 * and that import — the layer written, every record under it computed again, diffed, kept as a new version and its
 * `property.changed` queued — is timed against the goal of 30 s, beside the same file imported once more (nothing
 * changes, nothing is sent) as the baseline of the import's own work.
 *
 * SQLite in a temporary folder by default; BENCH_DATABASE_URL=postgres://… runs Lotline on PostgreSQL.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import pg from "pg";
import { positiveInteger, print, printTable } from "../../../scripts/bench-kit.js";
import { migrateToLatest } from "../dist/db/migrate.js";
import { JobRunner } from "../dist/jobs/index.js";
import { setMonitoringCallback } from "../dist/monitoring/monitoring-settings.js";
import { createOrder } from "../dist/orders/create-order.js";
import { addCallbackPrefix } from "../dist/tenancy/callback-prefixes.js";
import { createOrganization } from "../dist/tenancy/organizations.js";
import { orderHandlers } from "../dist/workers/background-work.js";
import { writeTiledDataset } from "./scale-data.js";
import { hasOgr2ogr, hasPostgis, ogrToPostgisTable, timed } from "./scale-reference.js";
import { prepareDatabase } from "./served.js";

const DATA = fileURLToPath(new URL("../../../../shared/data/cambridge/", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/lotline.js", import.meta.url));
const TILES = positiveInteger("BENCH_TILES", 77);
const PORTFOLIO = positiveInteger("BENCH_PORTFOLIO", 1_000_000);
const CHANGED = positiveInteger("BENCH_CHANGED", 10_000);
const ORGANIZATIONS = 10;
/** The side of a flood zone of the layer that changes, degrees. */
const ZONE_SIDE = 0.003;
const EVENT_POSITIONS = 20_000;
const EVENT_RADIUS_KM = 25;
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const POSTGIS_URL = process.env.BENCH_POSTGIS_URL ?? DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** The heap cap the README asks imports to run with. */
const IMPORT_HEAP_MB = 256;

if (!existsSync(DATA)) {
  print(`bench:events needs the Cambridge data at ${DATA}`);
  process.exit(1);
}

const lotline = (url, args) =>
  timed(process.execPath, [`--max-old-space-size=${IMPORT_HEAP_MB}`, BIN, ...args, "--json"], {
    ...process.env,
    LOTLINE_DATABASE_URL: url,
    LOTLINE_LOG_LEVEL: "error",
  });

/** Ten organizations, the first monitoring; the portfolio's properties, one on each of the first parcels. */
async function generatePortfolio(db) {
  const orgs = [];
  for (let i = 0; i < ORGANIZATIONS; i++) orgs.push((await createOrganization(db, `Events Mutual ${i}`)).org_id);
  await addCallbackPrefix(db, orgs[0], "https://core.example.com/hooks/");
  await setMonitoringCallback(db, orgs[0], "https://core.example.com/hooks/monitoring");
  const now = Date.now();
  const org = sql.join(
    orgs.map((id, i) => sql`when ${i} then ${id}`),
    sql` `,
  );
  await sql`
    insert into properties (org_id, address, lat, lon, parcel_id, external_id, created_at, updated_at)
    select case parcel_id % ${ORGANIZATIONS} ${org} end, null, (min_lat + max_lat) / 2, (min_lon + max_lon) / 2,
      parcel_id, 'POL-' || parcel_id, ${now}, ${now}
    from (select * from parcels order by parcel_id limit ${PORTFOLIO}) first_parcels`.execute(db);
  const { rows } = await sql`select count(*) as n from properties`.execute(db);
  return { orgs, properties: Number(rows[0].n) };
}

/** A county-sized event in the middle of the tiles: a lobed outline of `EVENT_POSITIONS` positions, as GeoJSON. */
async function writeEvent(db, file) {
  const { rows } = await sql`
    select min(min_lon) as w, min(min_lat) as s, max(max_lon) as e, max(max_lat) as n from parcels`.execute(db);
  const [w, s, e, n] = ["w", "s", "e", "n"].map((key) => Number(rows[0][key]));
  const [lon, lat] = [(w + e) / 2, (s + n) / 2];
  const radiusLat = EVENT_RADIUS_KM / 111.2;
  const radiusLon = radiusLat / Math.cos((lat * Math.PI) / 180);
  const ring = Array.from({ length: EVENT_POSITIONS }, (_, i) => {
    const angle = (2 * Math.PI * i) / EVENT_POSITIONS;
    const r = 1 + 0.15 * Math.sin(5 * angle) + 0.04 * Math.sin(37 * angle);
    return [lon + radiusLon * r * Math.cos(angle), lat + radiusLat * r * Math.sin(angle)];
  });
  const geometry = { type: "Polygon", coordinates: [[...ring, ring[0]]] };
  writeFileSync(
    file,
    JSON.stringify({
      type: "FeatureCollection",
      features: [{ type: "Feature", properties: { wind_mph: 110 }, geometry }],
    }),
  );
}

/**
 * The same search in PostGIS: parcels and buildings loaded by ogr2ogr, each building given the parcel holding its
 * point on surface, the portfolio as a table; then one statement finds the portfolio's parcels the event meets,
 * with the share inside by geodesic area and their buildings inside and in all. Seconds of that statement.
 */
async function postgisSearch(files, eventFile, url, schema) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("create extension if not exists postgis");
  await admin.query(`create schema ${schema}`);
  await admin.end();
  for (const [table, file] of [
    ["parcels", files.parcels],
    ["buildings", files.buildings],
    ["event", eventFile],
  ]) {
    await ogrToPostgisTable(file, url, `${schema}.${table}`);
  }
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
  await client.connect();
  await client.query(`alter table buildings add column parcel_fid integer`);
  await client.query(
    `update buildings b set parcel_fid = p.fid from parcels p where p.geom && b.geom and st_intersects(p.geom, st_pointonsurface(b.geom))`,
  );
  await client.query(`create index on buildings (parcel_fid)`);
  await client.query(
    `create table portfolio as select fid as property_id, fid as parcel_fid, fid % ${ORGANIZATIONS} as org from parcels order by fid limit ${PORTFOLIO}`,
  );
  await client.query(`create index on portfolio (parcel_fid)`);
  await client.query("analyze");
  // As a PostGIS hand would write it: the event cut into parts under their own index first (ST_Subdivide), so
  // that a parcel is tested against the parts near it; the share inside by geodesic area.
  const started = performance.now();
  await client.query(`create table event_parts as select st_subdivide(geom, 256) as geom from event`);
  await client.query(`create index on event_parts using gist (geom)`);
  const { rowCount } = await client.query(`
    create table impacts as
    with hits as (
      select p.fid, sum(case when st_coveredby(p.geom, e.geom) then st_area(p.geom::geography)
        else st_area(st_intersection(p.geom, e.geom)::geography) end) as inside
      from portfolio pr join parcels p on p.fid = pr.parcel_fid
      join event_parts e on p.geom && e.geom and st_intersects(p.geom, e.geom)
      group by p.fid)
    select pr.property_id, pr.org, least(1, h.inside / nullif(st_area(p.geom::geography), 0)) as share,
      (select count(*) from buildings b where b.parcel_fid = p.fid and exists (
        select 1 from event_parts e where b.geom && e.geom and st_intersects(b.geom, e.geom))) as buildings_inside,
      (select count(*) from buildings b where b.parcel_fid = p.fid) as buildings_total
    from hits h join parcels p on p.fid = h.fid join portfolio pr on pr.parcel_fid = p.fid`);
  const seconds = (performance.now() - started) / 1000;
  await client.end();
  return { seconds, impacted: rowCount };
}

/** A layer of square flood zones over `box`, each designated `zone`, as GeoJSON. */
function writeZones(file, [w, s, e, n], zone) {
  const features = [];
  for (let x = w; x < e; x += ZONE_SIDE) {
    for (let y = s; y < n; y += ZONE_SIDE) {
      const ring = [
        [x, y],
        [x + ZONE_SIDE, y],
        [x + ZONE_SIDE, y + ZONE_SIDE],
        [x, y + ZONE_SIDE],
        [x, y],
      ];
      const id = `Z${features.length}`;
      features.push({
        type: "Feature",
        properties: { id, fld_zone: zone },
        geometry: { type: "Polygon", coordinates: [ring] },
      });
    }
  }
  writeFileSync(file, JSON.stringify({ type: "FeatureCollection", features }));
}

/**
 * BENCH_CHANGED properties of the portfolio ordered for real under a flood layer, every organization monitoring;
 * then the layer imported again redesignated (timed), and once more unchanged (the baseline).
 */
async function propertyChanges(prepared, orgs, folder) {
  const { db } = prepared.database;
  for (const [i, orgId] of orgs.entries()) {
    if (i === 0) continue;
    await addCallbackPrefix(db, orgId, `https://core${i}.example.com/hooks/`);
    await setMonitoringCallback(db, orgId, `https://core${i}.example.com/hooks/monitoring`);
  }
  const chosen = await db
    .selectFrom("properties")
    .select(["property_id", "org_id", "external_id", "lon", "lat"])
    .orderBy("property_id")
    .limit(CHANGED)
    .execute();
  const box = chosen.reduce(
    ([w, s, e, n], { lon, lat }) => [Math.min(w, lon), Math.min(s, lat), Math.max(e, lon), Math.max(n, lat)],
    [Infinity, Infinity, -Infinity, -Infinity],
  );
  const [before, after] = [join(folder, "zones-ae.geojson"), join(folder, "zones-ve.geojson")];
  writeZones(before, box, "AE");
  writeZones(after, box, "VE");
  const importZones = async (file) => {
    const run = await lotline(prepared.url, ["import", "layer", file, "--id-field", "id", "--name", "Flood zones"]);
    return { seconds: run.seconds, properties: JSON.parse(run.stdout).properties_changed };
  };
  await importZones(before);

  const started = performance.now();
  for (const property of chosen) {
    await createOrder(prepared.database, property.org_id, {
      location: { lon: property.lon, lat: property.lat },
      external_id: property.external_id,
    });
  }
  await new JobRunner(prepared.database, { handlers: orderHandlers(prepared.database) }).drain();
  const ordering = (performance.now() - started) / 1000;

  const changed = await importZones(after);
  const unchanged = await importZones(after);
  const count = async (table, where) => {
    const { rows } = await sql`select count(*) as n from ${sql.table(table)} where ${where}`.execute(db);
    return Number(rows[0].n);
  };
  return {
    ordering,
    changed,
    unchanged,
    notices: await count("webhook_events", sql`type = 'property.changed'`),
    versions: await count("property_versions", sql`cause = 'order'`),
  };
}

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "lotline-events-bench-"));
  const cleanups = [() => rmSync(folder, { recursive: true, force: true })];
  try {
    print(
      `lotline events bench: node ${process.version}, ${availableParallelism()} CPUs (load average ` +
        `${loadavg()[0].toFixed(2)}), ${TILES} tiles of Cambridge, a portfolio of ${PORTFOLIO}; Lotline on ` +
        `${DATABASE_URL ? "PostgreSQL" : "SQLite"}`,
    );
    const { files, counts } = await writeTiledDataset(DATA, folder, TILES);
    const prepared = await prepareDatabase(folder, DATABASE_URL);
    cleanups.unshift(prepared.drop);
    cleanups.unshift(() => prepared.database.close());
    await migrateToLatest(prepared.database);
    await lotline(prepared.url, ["import", "parcels", files.parcels, "--id-field", "ML", "--name", "Parcels"]);
    await lotline(prepared.url, ["import", "buildings", files.buildings, "--id-field", "BID", "--name", "Buildings"]);
    const { orgs, properties } = await generatePortfolio(prepared.database.db);
    print(`imported ${counts.parcels} parcels and ${counts.buildings} buildings; ${properties} properties ordered`);

    const eventFile = join(folder, "event.geojson");
    await writeEvent(prepared.database.db, eventFile);
    const run = await lotline(prepared.url, [
      "import",
      "event",
      eventFile,
      "--name",
      "County storm",
      "--peril",
      "wind",
      "--intensity-field",
      "wind_mph",
    ]);
    const event = JSON.parse(run.stdout);
    print(
      `lotline import event: ${run.seconds.toFixed(1)} s for ${event.impacted_properties} impacted properties ` +
        `(${Math.round(event.impacted_properties / run.seconds)}/s), peak ${run.peakMb.toFixed(0)} MB`,
    );

    let postgis;
    if (hasOgr2ogr() && (await hasPostgis(POSTGIS_URL))) {
      const schema = `events_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
      cleanups.unshift(async () => {
        const admin = new pg.Client({ connectionString: POSTGIS_URL });
        await admin.connect();
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      });
      postgis = await postgisSearch(files, eventFile, POSTGIS_URL, schema);
    } else {
      print(
        "ogr2ogr or the postgis extension is missing (Debian gdal-bin, postgresql-15-postgis-3): no PostGIS column",
      );
    }

    const changes = await propertyChanges(prepared, orgs, folder);

    print();
    printTable(
      ["", "Lotline", "PostGIS (ST_Subdivide, then one statement)", "ratio"],
      [
        [
          "properties an event 50 km across meets",
          `${event.impacted_properties}`,
          postgis ? `${postgis.impacted}` : "",
          "",
        ],
        [
          `lotline import event (goal: 10 s)`,
          `${run.seconds.toFixed(1)} s, ${run.peakMb.toFixed(0)} MB`,
          postgis ? `${postgis.seconds.toFixed(1)} s` : "",
          postgis ? `${(run.seconds / postgis.seconds).toFixed(2)} ×` : "",
        ],
        [
          "properties a second",
          `${Math.round(event.impacted_properties / run.seconds)}`,
          postgis ? `${Math.round(postgis.impacted / postgis.seconds)}` : "",
          "",
        ],
      ],
    );
    print();
    print(`${event.organizations} organizations impacted; the monitoring one is sent an event.impacted webhook`);
    print();
    printTable(
      ["a flood map redrawn under ordered properties", "seconds", "properties changed", "ratio"],
      [
        [
          `every zone redesignated (goal: 30 s for ${CHANGED})`,
          changes.changed.seconds.toFixed(1),
          `${changes.changed.properties}`,
          `${(changes.changed.seconds / changes.unchanged.seconds).toFixed(2)} ×`,
        ],
        [
          "the same file again (baseline)",
          changes.unchanged.seconds.toFixed(1),
          `${changes.unchanged.properties}`,
          "1 ×",
        ],
      ],
    );
    print(
      `${changes.notices} property.changed webhooks queued; ${changes.versions} earlier versions kept; ` +
        `orders placed and processed in ${changes.ordering.toFixed(1)} s`,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

await main();
