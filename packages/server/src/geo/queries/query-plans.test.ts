import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CompiledQuery, createQueryId, type KyselyPlugin, type RootOperationNode, sql, type Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangedArea } from "../../changes/changed-area.js";
import { propertiesInArea } from "../../changes/properties-in-area.js";
import { postgresArrayLiteral } from "../../db/postgres-array-literal.js";
import { RowWriter } from "../../db/row-writer.js";
import type { Schema } from "../../db/schema.js";
import { EventArea } from "../../events/event-area.js";
import { findImpacts } from "../../events/find-impacts.js";
import { createOrganization } from "../../tenancy/organizations.js";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../../test/test-database.js";
import { bboxPolygon } from "../geometry/bbox-polygon.js";
import { bboxOf } from "../geometry/index.js";
import { AddressLocator } from "../import/address-locator.js";
import { ParcelAssigner, reassignBuildings } from "../import/assign-buildings.js";
import { rejectDuplicates } from "../import/duplicate-areas.js";
import { importFile } from "../import/import-file.js";
import { reverseLocate } from "../locate/reverse-locate.js";
import type { GeoSource } from "../store/spatial-filter.js";
import { AttributeKeys } from "../store/stored-attributes.js";
import type { BBox, LonLat } from "../types.js";
import { buildingsMeetingBBox } from "./buildings-meeting-bbox.js";
import { buildingsNear } from "./buildings-near.js";
import { layerFeaturesIntersecting } from "./layer-features-intersecting.js";
import { layerFeaturesMeetingBBox } from "./layer-features-meeting-bbox.js";
import { nearestLayerFeatures } from "./nearest-layer-features.js";
import { neighboursAround } from "./neighbours-around.js";
import { parcelAt } from "./parcel-at.js";
import { parcelsMeetingBBox } from "./parcels-meeting-bbox.js";
import { parcelsNear } from "./parcels-near.js";

const DATA = fileURLToPath(new URL("../../../../../../shared/data/cambridge/", import.meta.url));
const PRESENT = existsSync(join(DATA, "parcels-fy2014.topojson"));
const SPATIAL_TABLES = ["parcels", "buildings", "layer_features", "layer_parts", "properties"];

/** Records every query run through the database it is plugged into, to be explained afterwards. */
class QueryRecorder implements KyselyPlugin {
  readonly nodes: RootOperationNode[] = [];
  transformQuery({ node }: { node: RootOperationNode }): RootOperationNode {
    this.nodes.push(node);
    return node;
  }
  async transformResult<T>({ result }: { result: T }): Promise<T> {
    return result;
  }
}

/**
 * The plan of a query, one line per step: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN as JSON, flattened.
 * With `sortsDisabled`, PostgreSQL plans as though sorting cost too much to consider: the choice its planner makes
 * for a page of rows in id order once a table's statistics say millions, where walking an index in id order until
 * the page is full looks cheaper than sorting what the boxes find. At 1 M parcels that walk took a second for a map
 * of the last tile; on the few thousand rows of a test it is chosen only when sorting is ruled out. With `generic`,
 * PostgreSQL's plan for any parameters: a statement the service keeps prepared (`db/prepared-statements.ts`) runs
 * it once the planner finds it no costlier than the plans for the parameters given.
 */
async function planOf(
  test: TestDatabase,
  query: CompiledQuery,
  { sortsDisabled = false, generic = false } = {},
): Promise<string[]> {
  const { db } = test.database;
  if (TEST_DIALECT === "sqlite") {
    const result = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return result.rows.map((row) => row.detail);
  }
  const result = await db.connection().execute(async (connection) => {
    if (!generic) {
      return connection.transaction().execute(async (trx) => {
        if (sortsDisabled) await sql`set local enable_sort = off`.execute(trx);
        return trx.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
        );
      });
    }
    await connection.executeQuery(CompiledQuery.raw(`prepare plan_checked as ${query.sql}`));
    try {
      return await connection.transaction().execute(async (trx) => {
        await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
        // EXECUTE takes its arguments as literals; the prepared statement gives them their types.
        const values = query.parameters.map(literal).join(", ");
        return trx.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`explain (format json) execute plan_checked(${values})`),
        );
      });
    } finally {
      await connection.executeQuery(CompiledQuery.raw("deallocate plan_checked"));
    }
  });
  const lines: string[] = [];
  const walk = (node: PlanNode) => {
    lines.push(`${node["Node Type"]} ${node["Relation Name"] ?? ""} ${node["Index Name"] ?? ""}`.trim());
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(result.rows[0]?.["QUERY PLAN"][0]?.Plan as PlanNode);
  return lines;
}

/** A parameter written as a PostgreSQL literal of no type yet: a number, a text, an array of them. */
function literal(value: unknown): string {
  if (value === null) return "null";
  const text = Array.isArray(value) ? postgresArrayLiteral(value) : String(value);
  if (text === undefined) throw new Error(`no literal for ${JSON.stringify(value)}`);
  return `'${text.replaceAll("'", "''")}'`;
}

/** The plans a query may run with: on PostgreSQL, for its parameters and for any (a prepared statement's). */
async function plansOf(test: TestDatabase, query: CompiledQuery): Promise<string[]> {
  const ways = TEST_DIALECT === "postgres" ? [{}, { generic: true }] : [{}];
  return Promise.all(ways.map(async (way) => (await planOf(test, query, way)).join("\n→ ")));
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/**
 * Whether the spatial index leads: it is searched, and no spatial table is read otherwise than through it or by
 * primary key — no scan of the table, no walk of another of its indexes (such as one on the dataset).
 */
function ledBySpatialIndex(plan: string[]): boolean {
  if (TEST_DIALECT === "sqlite") {
    // An R*Tree searched by its box constraints (index 2 and the constraints it was given), whatever its alias.
    const usesRtree = plan.some((step) => /^SCAN \w+ VIRTUAL TABLE INDEX 2:[A-D]\d/.test(step));
    const readsOtherwise = plan.some((step) =>
      SPATIAL_TABLES.some(
        (table) =>
          new RegExp(`^(SCAN|SEARCH) ${table}\\b`).test(step) &&
          !new RegExp(`^SEARCH ${table} USING INTEGER PRIMARY KEY`).test(step),
      ),
    );
    return usesRtree && !readsOtherwise;
  }
  const usesGist = plan.some((step) => SPATIAL_TABLES.some((table) => step.includes(`${table}_bbox`)));
  const scans = plan.some((step) => SPATIAL_TABLES.some((table) => step === `Seq Scan ${table}`));
  // A bitmap of another index ANDed with the boxes' reads all of that index's entries for the value asked.
  const otherIndex = plan.some((step) => {
    const index = step.match(/Index (?:Only )?Scan\b.*\s(\w+)$/)?.[1] ?? "";
    return SPATIAL_TABLES.some((table) => index.startsWith(`${table}_`)) && !/_bbox|_pkey$/.test(index);
  });
  return usesGist && !scans && !otherIndex;
}

/** The first point north of `point`, a metre at a time, on no parcel: the street in front of a lot. */
async function streetBeside(source: GeoSource, point: LonLat): Promise<LonLat> {
  for (let metres = 1; metres <= 200; metres++) {
    const north: LonLat = [point[0], point[1] + metres / 111_000];
    if (!(await parcelAt(source, north))) return north;
  }
  throw new Error(`every point within 200 m north of ${point.join(", ")} is on a parcel`);
}

describe.skipIf(!PRESENT)(
  `spatial query plans on the real Cambridge data${PRESENT ? "" : " — SKIPPED: ../shared/data/cambridge is missing"}`,
  () => {
    let test: TestDatabase;
    const datasets: Record<string, number> = {};

    beforeAll(async () => {
      test = await createTestDatabase();
      const { database } = test;
      await importFile(database, { kind: "parcels", file: join(DATA, "parcels-fy2014.topojson"), idField: "ML" });
      await importFile(database, { kind: "buildings", file: join(DATA, "buildings-east-cambridge/Buildings.shp") });
      for (const layer of ["hydrants", "fema-floodplain-500yr", "zoning-districts"]) {
        await importFile(database, { kind: "layer", file: join(DATA, `layers/${layer}.geojson`), name: layer });
        const row = await database.db
          .selectFrom("datasets")
          .select("dataset_id")
          .where("name", "=", layer)
          .executeTakeFirstOrThrow();
        datasets[layer] = row.dataset_id;
      }
      // A portfolio: a property with a record on every parcel, its lot's box the parcel's.
      const { org_id } = await createOrganization(database.db, "Plan Mutual");
      await sql`insert into properties (org_id, lat, lon, parcel_id, record, version, lot_min_lon, lot_min_lat,
          lot_max_lon, lot_max_lat, created_at, updated_at)
        select ${org_id}, (min_lat + max_lat) / 2, (min_lon + max_lon) / 2, parcel_id, '{"products":{}}', 1,
          min_lon, min_lat, max_lon, max_lat, 0, 0
        from parcels`.execute(database.db);
      // An address on every parcel, at the middle of its box.
      const { dataset_id } = await database.db
        .insertInto("datasets")
        .values({ kind: "addresses", name: "Plan addresses", created_at: 0, updated_at: 0 })
        .returning("dataset_id")
        .executeTakeFirstOrThrow();
      const { import_id } = await database.db
        .insertInto("imports")
        .values({ dataset_id, source: "plan", started_at: 0 })
        .returning("import_id")
        .executeTakeFirstOrThrow();
      await sql`insert into addresses (dataset_id, number, number_low, street, parcel_id, lon, lat, import_id, updated_at)
        select ${dataset_id}, '1', 1, 'MAIN ST', parcel_id, (min_lon + max_lon) / 2, (min_lat + max_lat) / 2,
          ${import_id}, 0
        from parcels`.execute(database.db);
      // The planner chooses by the statistics of the data, as it would in production after autovacuum.
      if (TEST_DIALECT === "postgres") await sql`analyze`.execute(database.db);
    }, 180_000);
    afterAll(() => test.destroy());

    it("leads every spatial query of an order, the pages and an import with the spatial index", async () => {
      const recorder = new QueryRecorder();
      const db = test.database.db.withPlugin(recorder);
      const source: GeoSource = { db, dialect: test.database.dialect };
      // 120 Gore Street, East Cambridge: buildings, hydrants, flood zones and zoning all around.
      const point: LonLat = [-71.0793, 42.3712];
      const parcel = await parcelAt(source, point);
      expect(parcel).toBeDefined();
      const lot = parcel?.boundary ?? { type: "Polygon", coordinates: [] };
      const around = bboxOf(lot);
      const map: BBox = [around[0] - 0.002, around[1] - 0.002, around[2] + 0.002, around[3] + 0.002];

      await parcelsNear(source, point, 100);
      await buildingsNear(source, lot, 100);
      await parcelsMeetingBBox(source, map, 200);
      await buildingsMeetingBBox(source, map, 200);
      await layerFeaturesIntersecting(source, datasets["fema-floodplain-500yr"] as number, lot);
      await layerFeaturesIntersecting(source, datasets["zoning-districts"] as number, lot);
      await layerFeaturesMeetingBBox(source, Object.values(datasets), map, 200);
      // A flood zone large enough to be stored in parts is read as its parts near the lot, by a query of its own.
      const part = await db
        .selectFrom("layer_parts")
        .innerJoin("layer_features", "layer_features.feature_id", "layer_parts.feature_id")
        .select([
          "dataset_id",
          "layer_parts.min_lon",
          "layer_parts.min_lat",
          "layer_parts.max_lon",
          "layer_parts.max_lat",
        ])
        .where("dataset_id", "=", datasets["fema-floodplain-500yr"] as number)
        .orderBy("part_id")
        .executeTakeFirstOrThrow();
      const inZone = bboxPolygon([part.min_lon, part.min_lat, part.max_lon, part.max_lat]);
      expect(await layerFeaturesIntersecting(source, part.dataset_id, inZone)).not.toEqual([]);
      const hydrants = await nearestLayerFeatures(source, datasets.hydrants as number, point);
      expect(hydrants).toHaveLength(1);
      await reverseLocate(source, await streetBeside(source, point));
      const building = (await buildingsNear(source, lot, 0))[0]?.building;
      expect(building).toBeDefined();
      if (building) expect((await neighboursAround(source, building, [10, 30, 100])).within[2]).toBeGreaterThan(0);
      // An import asks from within its transaction; the queries are the same.
      const trx = db as unknown as Transaction<Schema>;
      const importing = {
        trx,
        dialect: source.dialect,
        rows: new RowWriter(test.database, trx),
        attributeKeys: new AttributeKeys(trx),
      };
      if (building) await new ParcelAssigner(source).owningParcels([building.footprint]);
      const parcels = await db
        .selectFrom("datasets")
        .select(["dataset_id", "name"])
        .where("kind", "=", "parcels")
        .executeTakeFirstOrThrow();
      await rejectDuplicates(
        {
          ...importing,
          datasetId: -1,
          heldRecords: true,
          namespace: "main",
          importId: -1,
          now: 0,
          changes: new ChangedArea(),
          stage: () => {},
        },
        "parcels",
        [{ datasetId: parcels.dataset_id, name: parcels.name, extent: map }],
        new Map([["again", { sourceId: "again", geometry: lot, attributes: {}, positions: [0] }]]),
        [],
      );

      // An import finding the records under what it changed.
      const changed = new ChangedArea();
      changed.add(map);
      let records = 0;
      for await (const page of propertiesInArea(source, changed)) records += page.length;
      expect(records).toBeGreaterThan(10);

      const executor = test.database.db.getExecutor();
      const spatial = recorder.nodes
        .map((node) => executor.compileQuery(node, createQueryId()))
        .filter((query) => /_rtree|box\(point/.test(query.sql));
      expect(spatial.length).toBeGreaterThanOrEqual(12);
      expect(spatial.filter((query) => query.sql.includes('from "layer_parts"'))).not.toEqual([]);
      for (const query of spatial) {
        const ways = TEST_DIALECT === "postgres" ? [{}, { sortsDisabled: true }, { generic: true }] : [{}];
        for (const way of ways) {
          const plan = await planOf(test, query, way);
          expect(ledBySpatialIndex(plan), `${JSON.stringify(way)} ${query.sql}\n→ ${plan.join("\n→ ")}`).toBe(true);
        }
      }
    });

    it("finds the addresses without a parcel near a point through their own index", async () => {
      const recorder = new QueryRecorder();
      const db = test.database.db.withPlugin(recorder);
      await reverseLocate(
        { db, dialect: test.database.dialect },
        await streetBeside(test.database, [-71.0793, 42.3712]),
      );
      const executor = test.database.db.getExecutor();
      const parcelless = recorder.nodes
        .map((node) => executor.compileQuery(node, createQueryId()))
        .filter((query) => query.sql.includes('"parcel_id" is null'));
      expect(parcelless).toHaveLength(1);
      for (const query of parcelless) {
        for (const plan of await plansOf(test, query)) {
          expect(plan, query.sql).toMatch(
            TEST_DIALECT === "sqlite"
              ? /^SEARCH addresses USING INDEX addresses_without_parcel \(lat>\? AND lat<\?\)$/
              : /^Index Scan addresses addresses_without_parcel$/,
          );
        }
      }
    });

    it("joins an address import's rows to their parcels through the parcels' unique (dataset, id) index", async () => {
      const recorder = new QueryRecorder();
      const db = test.database.db.withPlugin(recorder);
      const locator = new AddressLocator({ addressColumn: "address", joinParcel: "ML" });
      const located = await locator.locateBatch({ db, dialect: test.database.dialect, namespace: "main" }, [
        { number: 2, feature: { type: "Feature", geometry: null, properties: { address: "1 MAIN ST", ML: "1-1" } } },
      ]);
      expect(located).toHaveLength(1);
      const executor = test.database.db.getExecutor();
      const [join, ...more] = recorder.nodes
        .map((node) => executor.compileQuery(node, createQueryId()))
        .filter((query) => query.sql.includes('"source_id" in') || query.sql.includes('"source_id" = any'));
      expect(more).toEqual([]);
      for (const plan of await plansOf(test, join as CompiledQuery)) {
        expect(plan, join?.sql).toMatch(
          TEST_DIALECT === "sqlite"
            ? /SEARCH parcels USING INDEX sqlite_autoindex_parcels_1 \(dataset_id=\? AND source_id=\?\)/
            : /Index Scan parcels parcels_source/,
        );
        expect(plan).not.toMatch(/SCAN parcels|Seq Scan parcels/);
      }
    });

    it("writes the buildings whose parcel changed by their ids, not by reading the whole table", async () => {
      const recorder = new QueryRecorder();
      const db = test.database.db.withPlugin(recorder);
      let lost = 0;
      const rolledBack = new Error("rolled back");
      await db
        .transaction()
        .execute(async (trx) => {
          // One building in 30 lost its parcel, as where a re-import changed a few lots among many: its update is
          // a small share of the table, for which PostgreSQL's planner had chosen to read the table whole.
          const { numAffectedRows } = await sql`update buildings set parcel_id = null, parcel_share = null
            where building_id % 30 = 0 and parcel_id is not null`.execute(trx);
          lost = Number(numAffectedRows);
          const area = new ChangedArea();
          area.add([-71.2, 42.3, -71.0, 42.45]);
          await reassignBuildings({ trx, dialect: test.database.dialect }, area);
          throw rolledBack;
        })
        .catch((error: unknown) => {
          if (error !== rolledBack) throw error;
        });
      const executor = test.database.db.getExecutor();
      const updates = recorder.nodes
        .map((node) => executor.compileQuery(node, createQueryId()))
        .filter((query) => /update buildings set parcel_id = owner/.test(query.sql));
      expect(updates).toHaveLength(1);
      const [update] = updates as [CompiledQuery];
      // Every building that lost its parcel got it back, in this one statement.
      const written = TEST_DIALECT === "sqlite" ? update.parameters.length / 3 : (update.parameters[0] as []).length;
      expect(lost).toBeGreaterThan(30);
      expect(written).toBe(lost);
      for (const plan of await plansOf(test, update)) {
        expect(plan, update.sql).toMatch(
          TEST_DIALECT === "sqlite" ? /SEARCH buildings USING INTEGER PRIMARY KEY/ : /Scan buildings buildings_pkey/,
        );
        expect(plan, update.sql).not.toMatch(/SCAN buildings\b|Seq Scan buildings/);
      }
    });

    // PostgreSQL rightly reads a city's few thousand rows whole rather than seek them; at a county's size it seeks
    // the same indexes.
    it.skipIf(TEST_DIALECT !== "sqlite")(
      "reads the properties and buildings of an event's parcels from the indexes by parcel alone",
      async () => {
        const recorder = new QueryRecorder();
        const db = test.database.db.withPlugin(recorder);
        // A storm over East Cambridge, its edge across blocks of parcels.
        const storm = new EventArea([{ area: bboxPolygon([-71.085, 42.366, -71.074, 42.374]), intensity: null }]);
        let impacted = 0;
        await findImpacts({ db, dialect: test.database.dialect }, storm, async (impacts) => {
          impacted += impacts.length;
        });
        expect(impacted).toBeGreaterThan(100);

        const executor = test.database.db.getExecutor();
        const byParcel = recorder.nodes
          .map((node) => executor.compileQuery(node, createQueryId()))
          .filter((query) => /from "(properties|buildings)" where .*"parcel_id" (in|= any)/.test(query.sql));
        expect(byParcel.map((query) => query.sql.match(/from "(\w+)"/)?.[1])).toEqual(
          expect.arrayContaining(["properties", "buildings"]),
        );
        for (const query of byParcel) {
          const plan = (await planOf(test, query)).join("\n→ ");
          expect(plan, query.sql).toMatch(/SEARCH \w+ USING COVERING INDEX \w+_by_parcel/);
        }
      },
    );
  },
);
