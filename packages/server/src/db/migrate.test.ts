import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, inject, it } from "vitest";
import {
  addressKey,
  formatAddress,
  type NormalizedAddress,
  normalizeAddress,
  streetKey,
} from "../geo/address/index.js";
import { readParcels } from "../geo/store/read-spatial-rows.js";
import { bboxMeets } from "../geo/store/spatial-filter.js";
import { decodeWkb, encodeWkb } from "../geo/store/wkb.js";
import type { Area, Geometry } from "../geo/types.js";
import { TEST_DIALECT } from "../test/test-database.js";
import { type Database, openDatabase } from "./database.js";
import { migrateToLatest } from "./migrate.js";
import { binaryGeometry } from "./migrations/0009-binary-geometry.js";
import { layerParts } from "./migrations/0011-layer-parts.js";
import { propertyVersions } from "./migrations/0014-property-versions.js";
import { eventSearchIndexes } from "./migrations/0015-event-search-indexes.js";
import { compactAddresses } from "./migrations/0016-compact-addresses.js";
import { addressLineFromParts } from "./migrations/0017-address-line-from-parts.js";
import { attributeKeys } from "./migrations/0018-attribute-keys.js";
import { parcellessAddressIndex } from "./migrations/0019-parcelless-address-index.js";
import { layerIndexByLayer } from "./migrations/0020-layer-index-by-layer.js";
import { datasetRecordCount } from "./migrations/0021-dataset-record-count.js";
import { parcelsWithoutSourceIndex } from "./migrations/0022-parcels-without-source-index.js";
import { geodataOwnersUnchecked } from "./migrations/0023-geodata-owners-unchecked.js";
import { addressParcelsUnchecked } from "./migrations/0024-address-parcels-unchecked.js";
import type { DatasetKind } from "./schema.js";

const TABLES = [
  "instance_settings",
  "organizations",
  "custom_fields",
  "api_clients",
  "iframe_keys",
  "registrations",
  "signing_keys",
  "token_issuances",
  "datasets",
  "imports",
  "parcels",
  "buildings",
  "addresses",
  "layer_features",
  "layer_parts",
  "monitoring",
  "events",
  "event_areas",
  "event_impacts",
  "property_versions",
  "order_batches",
  "order_batch_rows",
];

/** A database with no tables at all, on the current dialect: a new SQLite file, or a new PostgreSQL schema. */
interface Fresh {
  url: string;
  open(): Database;
  remove(): Promise<void>;
}

async function freshDatabase(): Promise<Fresh> {
  if (TEST_DIALECT === "sqlite") {
    const folder = mkdtempSync(join(tmpdir(), "lotline-migrate-"));
    const url = `sqlite:${join(folder, "lotline.db")}`;
    return { url, open: () => openDatabase(url), remove: async () => rmSync(folder, { recursive: true, force: true }) };
  }
  const runUrl = inject("postgresUrl");
  const schema = `m_${randomBytes(6).toString("hex")}`;
  const admin = openDatabase(runUrl);
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  return {
    url: runUrl,
    open: () => openDatabase(runUrl, { searchPath: schema }),
    async remove() {
      const cleanup = openDatabase(runUrl);
      await sql`drop schema ${sql.id(schema)} cascade`.execute(cleanup.db);
      await cleanup.close();
    },
  };
}

/** The tables of this database only (on PostgreSQL, introspection sees every schema of the database). */
async function tableNames(database: Database): Promise<string[]> {
  const schema =
    database.dialect === "postgres"
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(database.db)).rows[0]?.name
      : undefined;
  const tables = await database.db.introspection.getTables();
  return tables.filter((table) => schema === undefined || table.schema === schema).map((table) => table.name);
}

async function digestKeys(database: Database): Promise<{ name: string; value: string }[]> {
  return database.db.selectFrom("instance_settings").select(["name", "value"]).execute();
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fresh(): Promise<Fresh> {
  const created = await freshDatabase();
  cleanups.push(() => created.remove());
  return created;
}

function opened(target: Fresh): Database {
  const database = target.open();
  cleanups.push(() => database.close());
  return database;
}

/** A dataset and one import of it, for rows a migration test writes by hand. */
async function datasetWithImport(
  db: Database["db"],
  kind: DatasetKind,
  name: string,
  source: string,
): Promise<{ dataset_id: number; import_id: number }> {
  const { dataset_id } = await db
    .insertInto("datasets")
    .values({ kind, name, created_at: 1, updated_at: 1 })
    .returning("dataset_id")
    .executeTakeFirstOrThrow();
  const { import_id } = await db
    .insertInto("imports")
    .values({ dataset_id, source, started_at: 1 })
    .returning("import_id")
    .executeTakeFirstOrThrow();
  return { dataset_id, import_id };
}

/** A layer feature written by hand, with no attributes, in `into` (a dataset and its import). */
async function insertLayerFeature(
  db: Database["db"],
  into: { dataset_id: number; import_id: number },
  sourceId: string,
  geometry: Geometry,
  box: { min_lon: number; min_lat: number; max_lon: number; max_lat: number },
): Promise<void> {
  await db
    .insertInto("layer_features")
    .values({
      ...into,
      source_id: sourceId,
      geometry: encodeWkb(geometry),
      attribute_keys_id: 0,
      attributes: "[]",
      ...box,
    })
    .execute();
}

/** The names of `table`'s indexes but its primary key's, sorted, on the database's own catalog. */
async function indexNames(database: Database, table: string): Promise<string[]> {
  const query =
    database.dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`
      : sql<{ name: string }>`select indexname as name from pg_indexes
          where tablename = ${table} and schemaname = current_schema() and indexname <> ${`${table}_pkey`}`;
  return (await query.execute(database.db)).rows.map((row) => row.name).sort();
}

/** The tables a table's foreign keys refer to, one entry per key, sorted. */
async function foreignKeyTargets(database: Database, table: string): Promise<string[]> {
  const query =
    database.dialect === "sqlite"
      ? sql<{ name: string }>`select "table" as name from pragma_foreign_key_list(${table})`
      : sql<{ name: string }>`select confrelid::regclass::text as name from pg_constraint
          where conrelid = cast(${table} as regclass) and contype = 'f'`;
  return (await query.execute(database.db)).rows.map((row) => row.name).sort();
}

const EVERY_MIGRATION = [
  "0001-foundation",
  "0002-geodata",
  "0003-orders",
  "0004-custom-fields",
  "0005-dataset-namespaces",
  "0006-order-batches",
  "0007-job-priority",
  "0008-batch-opening",
  "0009-binary-geometry",
  "0010-address-town-index",
  "0011-layer-parts",
  "0012-monitoring",
  "0013-events",
  "0014-property-versions",
  "0015-event-search-indexes",
  "0016-compact-addresses",
  "0017-address-line-from-parts",
  "0018-attribute-keys",
  "0019-parcelless-address-index",
  "0020-layer-index-by-layer",
  "0021-dataset-record-count",
  "0022-parcels-without-source-index",
  "0023-geodata-owners-unchecked",
  "0024-address-parcels-unchecked",
];

describe("migrateToLatest", () => {
  it("applies every migration to an empty database, and nothing the second time", async () => {
    const database = opened(await fresh());
    expect(await tableNames(database)).toEqual([]);
    expect(await migrateToLatest(database)).toEqual(EVERY_MIGRATION);
    expect(await migrateToLatest(database)).toEqual([]);
  });

  it("finds a schema up to date without the migrator's lock, as a command started during an import must", async () => {
    const target = await fresh();
    const database = opened(target);
    await migrateToLatest(database);
    // Another connection holds what the migrator would wait for: on SQLite the write lock, as an import does for
    // its whole transaction; on PostgreSQL the migrator's own table of locks.
    const other = opened(target);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = other.db.transaction().execute(async (trx) => {
      await (other.dialect === "sqlite"
        ? sql`update instance_settings set value = value`
        : sql`lock table kysely_migration_lock in access exclusive mode`
      ).execute(trx);
      holding();
      await released;
    });
    await held;
    const checked = migrateToLatest(database).then((applied) => ({ applied }));
    const waited = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 3000));
    try {
      expect(await Promise.race([checked, waited])).toEqual({ applied: [] });
    } finally {
      release();
      await holder;
      await checked.catch(() => {});
    }
  });

  it("runs a migration not yet run, and refuses a database a later version migrated, as the migrator does", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const last = addressParcelsUnchecked(database.dialect);
    await last.down?.(database.db);
    await sql`delete from kysely_migration where name = '0024-address-parcels-unchecked'`.execute(database.db);
    expect(await migrateToLatest(database)).toEqual(["0024-address-parcels-unchecked"]);

    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-later-version', '2030-01-01')`.execute(
      database.db,
    );
    await expect(migrateToLatest(database)).rejects.toThrow(/9999-from-a-later-version/);
  });

  it("creates the expected tables", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    expect(await tableNames(database)).toEqual(expect.arrayContaining(TABLES));
  });

  it("creates the secret digest key once, and keeps it across runs and connections", async () => {
    const target = await fresh();
    const database = opened(target);
    await migrateToLatest(database);
    const keys = await digestKeys(database);
    expect(keys).toHaveLength(1);
    expect(keys[0]?.name).toBe("secret_digest_key");
    expect(Buffer.from(keys[0]?.value ?? "", "base64url")).toHaveLength(32);

    await migrateToLatest(database);
    const again = opened(target);
    expect(await migrateToLatest(again)).toEqual([]);
    expect(await digestKeys(again)).toEqual(keys);
  });

  it("migrates two deployments side by side (PostgreSQL: two schemas of one database), each with its own key", async () => {
    const a = opened(await fresh());
    const b = opened(await fresh());
    expect(await migrateToLatest(a)).toEqual(EVERY_MIGRATION);
    expect(await migrateToLatest(b)).toEqual(EVERY_MIGRATION);
    expect(await tableNames(b)).toEqual(expect.arrayContaining(TABLES));
    expect(await migrateToLatest(a)).toEqual([]);
    expect((await digestKeys(a))[0]?.value).not.toBe((await digestKeys(b))[0]?.value);
  });

  it("turns stored GeoJSON into WKB and back, every coordinate to the last bit (migration 0009)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const { db } = database;
    // Coordinates as reprojection leaves them: doubles with every digit used.
    const lot: Area = {
      type: "MultiPolygon",
      coordinates: [
        [
          [
            [-71.1 + 1 / 3e4, 42.3 + 1 / 7e4],
            [-71.1 + 2 / 3e4, 42.3 + 1 / 7e4],
            [-71.1 + 2 / 3e4, 42.3 + 3 / 7e4],
            [-71.1 + 1 / 3e4, 42.3 + 1 / 7e4],
          ],
        ],
      ],
    };
    const hydrant: Geometry = { type: "Point", coordinates: [-71.0812345678901, 42.3712345678901] };
    const { dataset_id, import_id } = await datasetWithImport(db, "parcels", "lots", "lots.geojson");
    const box = { min_lon: -71.1, min_lat: 42.3, max_lon: -71.09, max_lat: 42.31 };
    for (let i = 0; i < 1200; i++) {
      await db
        .insertInto("parcels")
        .values({
          dataset_id,
          source_id: `L${i}`,
          boundary: encodeWkb(lot),
          attribute_keys_id: 0,
          attributes: "[]",
          area_m2: 1,
          ...box,
          import_id,
          updated_at: 1,
        })
        .execute();
    }
    await insertLayerFeature(db, { dataset_id, import_id }, "H1", hydrant, box);

    const migration = binaryGeometry(database.dialect);
    await migration.down?.(db);
    const texts = await sql<{ boundary: string }>`select boundary from parcels order by parcel_id`.execute(db);
    expect(texts.rows).toHaveLength(1200);
    expect(texts.rows.every((row) => row.boundary === JSON.stringify(lot))).toBe(true);
    await migration.up(db);
    const rows = await db.selectFrom("parcels").select("boundary").execute();
    expect(rows.every((row) => Buffer.from(row.boundary).equals(encodeWkb(lot)))).toBe(true);
    expect(decodeWkb(rows[0]?.boundary ?? new Uint8Array())).toStrictEqual(lot);
    const feature = await db.selectFrom("layer_features").select("geometry").executeTakeFirstOrThrow();
    expect(decodeWkb(feature.geometry)).toStrictEqual(hydrant);
  });
  it("cuts the large polygons of layers already imported into parts, and back (migration 0011)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const { db } = database;
    // A flood zone of 1,000 positions on a circle, and a small district.
    const circle = Array.from({ length: 1000 }, (_, i): [number, number] => {
      const angle = (2 * Math.PI * i) / 1000;
      return [-71.1 + 0.01 * Math.cos(angle), 42.36 + 0.01 * Math.sin(angle)];
    });
    const zone: Area = { type: "Polygon", coordinates: [[...circle, circle[0] as [number, number]]] };
    const district: Area = {
      type: "Polygon",
      coordinates: [
        [
          [-71.1, 42.36],
          [-71.09, 42.36],
          [-71.09, 42.37],
          [-71.1, 42.36],
        ],
      ],
    };
    const { dataset_id, import_id } = await datasetWithImport(db, "layer", "flood", "flood.geojson");
    const box = { min_lon: -71.11, min_lat: 42.35, max_lon: -71.09, max_lat: 42.37 };
    for (const [source_id, area] of [
      ["Z1", zone],
      ["D1", district],
    ] as const) {
      await insertLayerFeature(db, { dataset_id, import_id }, source_id, area, box);
    }

    const migration = layerParts(database.dialect);
    await migration.down?.(db);
    await migration.up(db);
    const features = await db
      .selectFrom("layer_features")
      .select(["feature_id", "source_id", "part_count"])
      .orderBy("source_id")
      .execute();
    expect(features.map((feature) => [feature.source_id, feature.part_count > 1])).toEqual([
      ["D1", false],
      ["Z1", true],
    ]);
    const parts = await db.selectFrom("layer_parts").selectAll().execute();
    expect(parts).toHaveLength(features[1]?.part_count ?? -1);
    expect(parts.every((part) => part.feature_id === features[1]?.feature_id && part.import_id === import_id)).toBe(
      true,
    );
    // Removing the feature removes its parts.
    await db.deleteFrom("layer_features").where("source_id", "=", "Z1").execute();
    expect(await db.selectFrom("layer_parts").selectAll().execute()).toEqual([]);
  });

  it("makes each record already computed version 1 of its property, with its lot's box (migration 0014)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const { db } = database;
    await db
      .insertInto("organizations")
      .values({ org_id: "org_m", name: "M", webhook_secret: "whsec_x", created_at: 1 })
      .execute();
    const lot: Area = {
      type: "Polygon",
      coordinates: [
        [
          [-71.1, 42.36],
          [-71.09, 42.36],
          [-71.09, 42.37],
          [-71.1, 42.36],
        ],
      ],
    };
    const record = JSON.stringify({ products: { parcel: { boundary: lot, area_m2: 1 } } });
    const property = (overrides: object) => ({
      org_id: "org_m",
      lat: 42.365,
      lon: -71.095,
      created_at: 5,
      updated_at: 7,
      ...overrides,
    });
    await db
      .insertInto("properties")
      .values([property({ record }), property({ record: null, lat: null, lon: null })])
      .execute();

    // Down past 0014 and up again; the later migration's indexes name 0014's columns.
    const migration = propertyVersions(database.dialect);
    await eventSearchIndexes.down?.(db);
    await migration.down?.(db);
    await migration.up(db);
    await eventSearchIndexes.up(db);
    const rows = await db
      .selectFrom("properties")
      .select(["version", "version_at", "version_cause", "lot_min_lon", "lot_min_lat", "lot_max_lon", "lot_max_lat"])
      .orderBy("property_id")
      .execute();
    expect(rows).toEqual([
      {
        version: 1,
        version_at: 7,
        version_cause: "order",
        lot_min_lon: -71.1,
        lot_min_lat: 42.36,
        lot_max_lon: -71.09,
        lot_max_lat: 42.37,
      },
      {
        version: 0,
        version_at: null,
        version_cause: null,
        lot_min_lon: null,
        lot_min_lat: null,
        lot_max_lon: null,
        lot_max_lat: null,
      },
    ]);
    // The lot box is under the spatial index: found by a box around the lot, and not by one beside it.
    const found = async (box: [number, number, number, number]) =>
      (
        await db
          .selectFrom("properties")
          .select("property_id")
          .where(bboxMeets(database.dialect, "properties", box))
          .execute()
      ).length;
    expect(await found([-71.095, 42.365, -71.094, 42.366])).toBe(1);
    expect(await found([-71.08, 42.38, -71.07, 42.39])).toBe(0);
  });

  it("keeps addresses in parts, and gives back their one-line form, key and JSON going down (migrations 0016, 0017)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const { db } = database;
    const { dataset_id, import_id } = await datasetWithImport(db, "addresses", "assessor", "assessor.csv");
    // More rows than go down a statement, with units, ranges and half numbers.
    const texts = Array.from({ length: 700 }, (_, i) =>
      i % 3 === 0
        ? `${i} 1/2 Main St, Cambridge, MA 02139-4321`
        : i % 3 === 1
          ? `${i}-${i + 2} N Elm Ave Apt ${i}B`
          : `${i} Gore St`,
    );
    const addresses = texts.map((text) => normalizeAddress(text) as NormalizedAddress);
    for (const address of addresses) {
      await db
        .insertInto("addresses")
        .values({
          dataset_id,
          number: address.number ?? null,
          number_low: address.numberLow ?? null,
          number_high: address.numberHigh ?? null,
          street: streetKey(address),
          unit_type: address.unitType ?? null,
          unit: address.unit ?? null,
          city: address.city ?? null,
          state: address.state ?? null,
          postcode: address.postcode ?? null,
          plus4: address.plus4 ?? null,
          parcel_id: null,
          lon: -71.1,
          lat: 42.37,
          import_id,
          updated_at: 1,
        })
        .execute();
    }
    const before = await db.selectFrom("addresses").selectAll().orderBy("address_id").execute();

    const lineFromParts = addressLineFromParts(database.dialect);
    await lineFromParts.down?.(db);
    const { rows: lines } = await sql<{ display: string }>`select display from addresses order by address_id`.execute(
      db,
    );
    expect(lines.map((row) => row.display)).toEqual(addresses.map((address) => formatAddress(address)));
    const migration = compactAddresses(database.dialect);
    await migration.down?.(db);
    const { rows: old } = await sql<{ address_key: string; normalized: string }>`
      select address_key, normalized from addresses order by address_id`.execute(db);
    expect(old).toEqual(
      addresses.map((address) => ({ address_key: addressKey(address), normalized: JSON.stringify(address) })),
    );
    // The key is unique again within a dataset.
    await expect(
      sql`insert into addresses (dataset_id, address_key, display, street, normalized, lon, lat, import_id, updated_at)
        values (${dataset_id}, ${old[1]?.address_key}, 'x', 'x', '{}', 0, 0, ${import_id}, 1)`.execute(db),
    ).rejects.toThrow(/unique/i);

    // The last row gone: its id is not given out again once the table is rebuilt.
    const last = before.at(-1)?.address_id ?? 0;
    await db.deleteFrom("addresses").where("address_id", "=", last).execute();
    await migration.up(db);
    await lineFromParts.up(db);
    expect(await db.selectFrom("addresses").selectAll().orderBy("address_id").execute()).toEqual(before.slice(0, -1));
    const { address_id: _, ...first } = before[0] as (typeof before)[number];
    const { address_id } = await db
      .insertInto("addresses")
      .values(first)
      .returning("address_id")
      .executeTakeFirstOrThrow();
    expect(address_id).toBeGreaterThan(last);
  });
  it("indexes the position of addresses without a parcel only, and of every address going down (migration 0019)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const indexes = () => indexNames(database, "addresses");
    expect(await indexes()).toEqual(["addresses_by_parcel", "addresses_by_street", "addresses_without_parcel"]);
    await parcellessAddressIndex.down?.(database.db);
    expect(await indexes()).toEqual(["addresses_by_lat", "addresses_by_parcel", "addresses_by_street"]);
    await parcellessAddressIndex.up(database.db);
    expect(await indexes()).toEqual(["addresses_by_parcel", "addresses_by_street", "addresses_without_parcel"]);
  });

  it.runIf(TEST_DIALECT === "sqlite")(
    "makes the layer the third dimension of the layer features' R*Tree, kept in step, and takes it away going down (migration 0020)",
    async () => {
      const database = opened(await fresh());
      await migrateToLatest(database);
      const { db } = database;
      const layers = [
        await datasetWithImport(db, "layer", "hydrants", "hydrants.geojson"),
        await datasetWithImport(db, "layer", "stations", "stations.geojson"),
      ];
      const box = { min_lon: -71.1, min_lat: 42.36, max_lon: -71.1, max_lat: 42.36 };
      const hydrant: Geometry = { type: "Point", coordinates: [-71.1, 42.36] };
      for (const [index, layer] of layers.entries()) await insertLayerFeature(db, layer, `F${index}`, hydrant, box);
      const [hydrants, stations] = layers.map((layer) => layer.dataset_id) as [number, number];
      const entries = async () =>
        (await sql<Record<string, number>>`select * from layer_features_rtree order by id`.execute(db)).rows.map(
          ({ id, ...rest }) => rest,
        );
      const layerAt = async (layer: number) =>
        (
          await sql<{ source_id: string }>`select source_id from layer_features where feature_id in
            (select id from layer_features_rtree where min_layer <= ${layer} and max_layer >= ${layer})`.execute(db)
        ).rows.map((row) => row.source_id);
      const spanning = (layer: number, lon = -71.1) => ({
        min_lon: expect.closeTo(lon, 4),
        max_lon: expect.closeTo(lon, 4),
        min_lat: expect.closeTo(42.36, 4),
        max_lat: expect.closeTo(42.36, 4),
        min_layer: layer - 0.25,
        max_layer: layer + 0.25,
      });
      expect(await entries()).toEqual([spanning(hydrants), spanning(stations)]);
      expect(await layerAt(hydrants)).toEqual(["F0"]);
      expect(await layerAt(stations)).toEqual(["F1"]);

      // Written, moved and removed rows keep their entries in step.
      await db
        .updateTable("layer_features")
        .set({ min_lon: -71.2, max_lon: -71.2 })
        .where("source_id", "=", "F1")
        .execute();
      await db.deleteFrom("layer_features").where("source_id", "=", "F0").execute();
      expect(await entries()).toEqual([spanning(stations, -71.2)]);

      const migration = layerIndexByLayer(database.dialect);
      await migration.down?.(db);
      const flat = await entries();
      expect(flat).toHaveLength(1);
      expect(Object.keys(flat[0] ?? {})).toEqual(["min_lon", "max_lon", "min_lat", "max_lat"]);
      await migration.up(db);
      expect(await entries()).toEqual([spanning(stations, -71.2)]);
    },
  );

  it.runIf(TEST_DIALECT === "postgres")(
    "indexes the layer features' boxes moved east by their layer, and plainly going down (migration 0020)",
    async () => {
      const database = opened(await fresh());
      await migrateToLatest(database);
      const indexes = async () =>
        (await indexNames(database, "layer_features")).filter((name) => name.includes("bbox"));
      expect(await indexes()).toEqual(["layer_features_bbox_by_layer"]);
      const migration = layerIndexByLayer(database.dialect);
      await migration.down?.(database.db);
      expect(await indexes()).toEqual(["layer_features_bbox"]);
      await migration.up(database.db);
      expect(await indexes()).toEqual(["layer_features_bbox_by_layer"]);
    },
  );

  it("counts the rows of every dataset already imported, and takes the count away going down (migration 0021)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const { db } = database;
    await datasetRecordCount.down?.(db);
    const hydrants = await datasetWithImport(db, "layer", "hydrants", "hydrants.geojson");
    const stations = await datasetWithImport(db, "layer", "stations", "stations.geojson");
    await datasetWithImport(db, "parcels", "lots", "lots.geojson");
    for (const [into, count] of [
      [hydrants, 3],
      [stations, 1],
    ] as const) {
      for (let i = 0; i < count; i++) {
        const point: Geometry = { type: "Point", coordinates: [-71.1 + i / 1000, 42.37] };
        const box = { min_lon: -71.1 + i / 1000, min_lat: 42.37, max_lon: -71.1 + i / 1000, max_lat: 42.37 };
        await insertLayerFeature(db, into, `F${i}`, point, box);
      }
    }

    await datasetRecordCount.up(db);
    const counts = await db.selectFrom("datasets").select(["name", "record_count"]).orderBy("name").execute();
    expect(counts.map((row) => [row.name, Number(row.record_count)])).toEqual([
      ["hydrants", 3],
      ["lots", 0],
      ["stations", 1],
    ]);

    await datasetRecordCount.down?.(db);
    const { rows } = await sql`select * from datasets`.execute(db);
    expect(Object.keys(rows[0] as object)).not.toContain("record_count");
  });

  it("keeps the parcels' unique (dataset, id) index and no other by id, and brings it back going down (migration 0022)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const indexes = () => indexNames(database, "parcels");
    // SQLite's spatial index is a table of its own; PostgreSQL's is the GiST index over the boxes.
    const kept = database.dialect === "sqlite" ? ["sqlite_autoindex_parcels_1"] : ["parcels_bbox", "parcels_source"];
    expect(await indexes()).toEqual(kept);
    await parcelsWithoutSourceIndex.down?.(database.db);
    expect(await indexes()).toEqual(["parcels_by_source_id", ...kept].sort());
    await parcelsWithoutSourceIndex.up(database.db);
    expect(await indexes()).toEqual(kept);
  });

  it("checks a geodata row's dataset and import by foreign key on SQLite only, and its parcel on both (migration 0023)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    // The keys as 0023 left them.
    await addressParcelsUnchecked(database.dialect).down?.(database.db);
    const targets = async () => ({
      parcels: await foreignKeyTargets(database, "parcels"),
      buildings: await foreignKeyTargets(database, "buildings"),
      addresses: await foreignKeyTargets(database, "addresses"),
      layer_features: await foreignKeyTargets(database, "layer_features"),
      layer_parts: await foreignKeyTargets(database, "layer_parts"),
    });
    const checked = {
      parcels: ["datasets", "imports"],
      buildings: ["datasets", "imports", "parcels"],
      addresses: ["datasets", "imports", "parcels"],
      layer_features: ["datasets", "imports"],
      layer_parts: ["imports", "layer_features"],
    };
    const onPostgres = {
      parcels: [],
      buildings: ["parcels"],
      addresses: ["parcels"],
      layer_features: [],
      layer_parts: ["layer_features"],
    };
    expect(await targets()).toEqual(database.dialect === "sqlite" ? checked : onPostgres);
    const migration = geodataOwnersUnchecked(database.dialect);
    await migration.down?.(database.db);
    expect(await targets()).toEqual(checked);
    await migration.up(database.db);
    expect(await targets()).toEqual(database.dialect === "sqlite" ? checked : onPostgres);
  });

  it("checks an address's parcel by foreign key on SQLite only, and going down clears the parcels gone (migration 0024)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const { db } = database;
    const targets = () => foreignKeyTargets(database, "addresses");
    const checked = database.dialect === "sqlite" ? ["datasets", "imports", "parcels"] : [];
    expect(await targets()).toEqual(checked);
    if (database.dialect === "sqlite") return;

    // An address naming a lot no longer there, as a removal that had not cleared it would leave it.
    const { dataset_id, import_id } = await datasetWithImport(db, "addresses", "points", "points.csv");
    await sql`insert into addresses (dataset_id, street, lon, lat, import_id, updated_at, parcel_id)
      values (${dataset_id}, 'GORE ST', -71.1, 42.3, ${import_id}, 1, 987654)`.execute(db);
    const migration = addressParcelsUnchecked(database.dialect);
    await migration.down?.(db);
    expect(await targets()).toEqual(["parcels"]);
    const { rows } = await sql<{ parcel_id: number | null }>`select parcel_id from addresses`.execute(db);
    expect(rows).toEqual([{ parcel_id: null }]);
    await migration.up(db);
    expect(await targets()).toEqual([]);
  });

  it("keeps attribute names once for every row with the same names, and gives the objects back going down (migration 0018)", async () => {
    const database = opened(await fresh());
    await migrateToLatest(database);
    const { db } = database;
    const migration = attributeKeys(database.dialect);
    await migration.down?.(db);
    const { dataset_id, import_id } = await datasetWithImport(db, "parcels", "lots", "lots.geojson");
    // More rows than go in a statement; three sets of names, one of them none, and a name JSON treats specially.
    const attributesOf = (i: number): Record<string, unknown> =>
      i % 3 === 0
        ? { ML: `127-${i}`, UYEAR: i, note: null, tags: ["a", { b: i }] }
        : i % 3 === 1
          ? JSON.parse(`{"__proto__": "not a prototype", "n": ${i}}`)
          : {};
    const lot: Area = {
      type: "Polygon",
      coordinates: [
        [
          [-71.1, 42.3],
          [-71.09, 42.3],
          [-71.09, 42.31],
          [-71.1, 42.3],
        ],
      ],
    };
    const rows = 1500;
    for (let i = 0; i < rows; i++) {
      await sql`insert into parcels (dataset_id, source_id, boundary, attributes, area_m2, min_lon, min_lat, max_lon,
          max_lat, import_id, updated_at)
        values (${dataset_id}, ${`L${i}`}, ${encodeWkb(lot)}, ${JSON.stringify(attributesOf(i))}, 1, -71.1, 42.3,
          -71.09, 42.31, ${import_id}, 1)`.execute(db);
    }

    await migration.up(db);
    const names = await db.selectFrom("attribute_keys").select("keys").execute();
    expect(names.map((row) => row.keys).sort()).toEqual(['["ML","UYEAR","note","tags"]', '["__proto__","n"]', "[]"]);
    const read = await readParcels(database, (query) => query.orderBy("parcel_id"));
    expect(read.map((parcel) => JSON.stringify(parcel.attributes))).toEqual(
      Array.from({ length: rows }, (_, i) => JSON.stringify(attributesOf(i))),
    );
    expect(Object.getPrototypeOf(read[1]?.attributes)).toBe(Object.prototype);

    await migration.down?.(db);
    const { rows: old } = await sql<{ attributes: string }>`select attributes from parcels order by parcel_id`.execute(
      db,
    );
    expect(old.map((row) => row.attributes)).toEqual(
      Array.from({ length: rows }, (_, i) => JSON.stringify(attributesOf(i))),
    );
  });
});
