/**
 * The field's reference tools on the same files, for `bench:scale`: ogr2ogr into a GeoPackage, and ogr2ogr into
 * PostGIS followed by the SQL that does what a Lotline import does besides loading (repairs, geodesic areas, each
 * building's parcel by the largest share, each address's parcel), then the lookups of an order done in PostGIS.
 * Benchmark baselines only: Lotline never needs either at run time. Each is used when present (Debian `gdal-bin`,
 * `postgresql-15-postgis-3`) and said to be absent otherwise.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import pg from "pg";

/** True when `ogr2ogr` runs. */
export function hasOgr2ogr() {
  return spawnSync("ogr2ogr", ["--version"]).status === 0;
}

/** True when the PostgreSQL server at `url` can create the `postgis` extension. */
export async function hasPostgis(url) {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query("select 1 from pg_available_extensions where name = 'postgis'");
    return rows.length > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Runs `command` with `args`, sampling the child's resident memory; answers seconds and peak RSS (MB). Throws
 * with its stderr when it fails.
 */
export async function timed(command, args, env = process.env) {
  const started = performance.now();
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  let peakKb = 0;
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, highWaterKb(child.pid));
  }, 100);
  const code = await new Promise((resolve) => child.once("exit", resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} failed (${code}): ${stderr.slice(-2000)}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, stdout };
}

/** The peak resident set of a live process, kB (Linux's VmHWM); 0 once it has gone. */
function highWaterKb(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** One file of the dataset per layer name a reference tool gives it. */
function sources(files) {
  return [
    { kind: "parcels", table: "parcels", file: files.parcels },
    { kind: "buildings", table: "buildings", file: files.buildings },
    { kind: "addresses", table: "addresses", file: files.addresses },
    ...files.layers.map((layer) => ({ kind: "layers", table: layer.name.replaceAll("-", "_"), file: layer.file })),
  ];
}

/** ogr2ogr of every file into one GeoPackage: seconds by kind, peak memory, the file's size. */
export async function ogrToGeoPackage(files, gpkg) {
  const seconds = { parcels: 0, buildings: 0, addresses: 0, layers: 0 };
  let peakMb = 0;
  let first = true;
  for (const source of sources(files)) {
    const run = await timed("ogr2ogr", [
      "-f",
      "GPKG",
      ...(first ? [] : ["-update"]),
      gpkg,
      source.file,
      "-nln",
      source.table,
      "-nlt",
      "PROMOTE_TO_MULTI",
    ]);
    first = false;
    seconds[source.kind] += run.seconds;
    peakMb = Math.max(peakMb, run.peakMb);
  }
  return { seconds, peakMb, bytes: statSync(gpkg).size };
}

/** `PG:` connection string of ogr2ogr for a `postgres://` URL. */
function ogrConnection(url) {
  const parsed = new URL(url);
  const parts = [
    `host=${parsed.hostname}`,
    `port=${parsed.port || 5432}`,
    `dbname=${parsed.pathname.slice(1) || "postgres"}`,
    `user=${decodeURIComponent(parsed.username || "postgres")}`,
  ];
  if (parsed.password) parts.push(`password=${decodeURIComponent(parsed.password)}`);
  return `PG:${parts.join(" ")}`;
}

/**
 * ogr2ogr of one file into a PostGIS table (`schema.table`) by COPY, multi-part geometry in `geom` under a GiST
 * index, ids in `fid`: how long it took and its peak memory.
 */
export function ogrToPostgisTable(file, url, table) {
  return timed(
    "ogr2ogr",
    [
      "-f",
      "PostgreSQL",
      ogrConnection(url),
      file,
      "-nln",
      table,
      "-nlt",
      "PROMOTE_TO_MULTI",
      "-lco",
      "GEOMETRY_NAME=geom",
      "-lco",
      "FID=fid",
      "-lco",
      "SPATIAL_INDEX=GIST",
    ],
    { ...process.env, PG_USE_COPY: "YES" },
  );
}

/**
 * What a Lotline import does besides loading, in PostGIS: repair what is invalid, geodesic areas, each building's
 * parcel (the largest share of its footprint) and each address's parcel (by the assessor's id).
 */
const IMPORT_WORK = {
  parcels: [
    "update parcels set geom = st_multi(st_collectionextract(st_makevalid(geom), 3)) where not st_isvalid(geom)",
    "alter table parcels add column area_m2 double precision",
    "update parcels set area_m2 = st_area(geom::geography)",
    "create index on parcels (ml)",
  ],
  buildings: [
    "update buildings set geom = st_multi(st_collectionextract(st_makevalid(geom), 3)) where not st_isvalid(geom)",
    "alter table buildings add column area_m2 double precision, add column parcel_fid integer, add column parcel_share double precision",
    "update buildings set area_m2 = st_area(geom::geography)",
    // Set-wise, and a parcel covering the whole footprint is not intersected: what a PostGIS hand would write.
    `update buildings b set parcel_fid = best.parcel_fid, parcel_share = best.share from (
       select distinct on (b.fid) b.fid, p.fid as parcel_fid,
         case when st_covers(p.geom, b.geom) then 1.0
           else st_area(st_intersection(p.geom, b.geom)) / nullif(st_area(b.geom), 0) end as share
       from buildings b join parcels p on p.geom && b.geom and st_intersects(p.geom, b.geom)
       order by b.fid, share desc, p.fid) best
     where b.fid = best.fid`,
    "create index on buildings (parcel_fid)",
  ],
  addresses: [
    "alter table addresses add column parcel_fid integer",
    "update addresses a set parcel_fid = p.fid from parcels p where p.ml = a.ml",
  ],
  layers: [],
};

/**
 * ogr2ogr of every file into PostGIS (COPY), then {@link IMPORT_WORK}, in a schema of its own: seconds by kind,
 * loading and SQL together, and the peak memory of ogr2ogr. Answers a client on that schema for the lookups.
 */
export async function ogrToPostgis(files, url, schema) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("create extension if not exists postgis");
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
  await client.connect();
  const seconds = { parcels: 0, buildings: 0, addresses: 0, layers: 0 };
  let peakMb = 0;
  for (const source of sources(files)) {
    const run = await ogrToPostgisTable(source.file, url, `${schema}.${source.table}`);
    const started = performance.now();
    for (const statement of IMPORT_WORK[source.kind]) await client.query(statement);
    seconds[source.kind] += run.seconds + (performance.now() - started) / 1000;
    peakMb = Math.max(peakMb, run.peakMb);
  }
  await client.query("analyze");
  return { seconds, peakMb, client };
}

/** The polygon layers an order matches its lot against. */
const POLYGON_LAYERS = [
  "fema_floodplain_100yr",
  "fema_floodplain_500yr",
  "zoning_districts",
  "historic_districts",
  "swimming_pools",
];

/**
 * The geographic lookups of one order, as PostGIS does them, each led by its spatial index: the parcel at the
 * point, its buildings with their areas, each one's nearest other building and its neighbours within 100 m, the
 * polygon layers meeting the lot with the area of their overlap, and the nearest hydrant and fire station.
 * Answers milliseconds for each point, in order.
 */
export async function postgisLookups(client, points) {
  const times = [];
  for (const [lon, lat] of points) {
    const started = performance.now();
    const point = `st_setsrid(st_makepoint(${lon}, ${lat}), 4326)`;
    const { rows } = await client.query(
      `select fid, st_area(geom::geography) as area from parcels where st_intersects(geom, ${point}) limit 1`,
    );
    const parcel = rows[0]?.fid;
    if (parcel !== undefined) {
      await client.query(
        `select b.fid, st_area(b.geom::geography),
           (select st_distance(o.geom::geography, b.geom::geography) from buildings o
             where o.fid <> b.fid order by o.geom <-> b.geom limit 1) as nearest_m,
           (select count(*) from buildings o where o.fid <> b.fid and o.geom && st_expand(b.geom, 0.002)
             and st_dwithin(o.geom::geography, b.geom::geography, 100)) as within_100_m
         from buildings b where b.parcel_fid = $1`,
        [parcel],
      );
      for (const layer of POLYGON_LAYERS) {
        await client.query(
          `select l.fid, st_area(st_intersection(l.geom, p.geom)::geography)
           from ${layer} l, parcels p where p.fid = $1 and l.geom && p.geom and st_intersects(l.geom, p.geom)`,
          [parcel],
        );
      }
    }
    for (const layer of ["hydrants", "fire_stations"]) {
      await client.query(
        `select fid, st_distance(geom::geography, ${point}::geography) from ${layer} order by geom <-> ${point} limit 1`,
      );
    }
    times.push(performance.now() - started);
  }
  return times;
}
