import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Kysely } from "kysely";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database.js";
import { migrateToLatest } from "../../db/migrate.js";
import type { Schema } from "../../db/schema.js";
import { runCli } from "../../test/run-cli.js";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../../test/test-database.js";
import { extentOf } from "../datasets/dataset-extent.js";
import { bboxOf, containsPoint, geodesicArea, geodesicDistance, representativePoint } from "../geometry/index.js";
import { locateAddress } from "../locate/locate-address.js";
import { reverseLocate } from "../locate/reverse-locate.js";
import { buildingsNear } from "../queries/buildings-near.js";
import { buildingsOfParcel } from "../queries/buildings-of-parcel.js";
import { layerFeaturesIntersecting } from "../queries/layer-features-intersecting.js";
import { firstRadiusOf, nearestLayerFeatures } from "../queries/nearest-layer-features.js";
import { parcelAt } from "../queries/parcel-at.js";
import { addressLine } from "../store/address-line.js";
import { decodeGeometry } from "../store/geometry-codec.js";
import type { Area, BBox, LonLat } from "../types.js";
import { ParcelAssigner } from "./assign-buildings.js";
import { importFile } from "./import-file.js";

/**
 * The real Cambridge, MA files (see the data README in ../shared/data) imported through `lotline import … --json`, the
 * way an operator would, into one database; then what a user of the imported data would see.
 */

const DATA = fileURLToPath(new URL("../../../../../../shared/data/cambridge/", import.meta.url));
const PARCELS_FILE = join(DATA, "parcels-fy2014.topojson");
const BUILDINGS_FILE = join(DATA, "buildings-east-cambridge/Buildings.shp");
const ASSESSOR_FILE = join(DATA, "assessor-fy2014.csv");
const PRESENT = [PARCELS_FILE, BUILDINGS_FILE, ASSESSOR_FILE, join(DATA, "layers")].every((path) => existsSync(path));

/** The seven city layers, with the number of features the README gives for each. */
const LAYERS = [
  { file: "fema-floodplain-100yr.geojson", name: "FEMA 100-year floodplain", count: 21 },
  { file: "fema-floodplain-500yr.geojson", name: "FEMA 500-year floodplain", count: 39 },
  { file: "fire-stations.geojson", name: "Fire stations", count: 8 },
  { file: "hydrants.geojson", name: "Hydrants", count: 1960 },
  { file: "swimming-pools.geojson", name: "Swimming pools", count: 64 },
  { file: "zoning-districts.geojson", name: "Zoning districts", count: 261 },
  { file: "historic-districts.geojson", name: "Historic districts", count: 2 },
] as const;

const PARCEL_PLACEHOLDERS = ["---", "-", "--MD", "--R", "ROAD"];

interface Summary {
  read: number;
  imported: number;
  updated: number;
  unchanged: number;
  merged: number;
  rejected: number;
  kind: string;
  dataset: string;
  rejected_by_reason: Record<string, number>;
  rejections: Array<{ number: number; reason: string; detail?: string }>;
}

describe.skipIf(!PRESENT)(
  PRESENT
    ? "the Cambridge, MA open data imported through lotline import"
    : "the Cambridge, MA open data imported through lotline import — SKIPPED: ../shared/data/cambridge is missing",
  () => {
    let testDatabase: TestDatabase;
    const summaries: {
      parcels?: Summary;
      buildings?: Summary;
      addresses?: Summary;
      layers: Map<string, Summary>;
    } = { layers: new Map() };
    const parcelsSummary = () => summaries.parcels as Summary;
    const buildingsSummary = () => summaries.buildings as Summary;
    const addressesSummary = () => summaries.addresses as Summary;

    /** The parcels file read independently of the importer: each feature's ML and geometry by feature number. */
    let source: Map<number, { ml: string | undefined; geometry: Area }>;

    async function lotline(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
      return runCli(argv, { LOTLINE_DATABASE_URL: testDatabase.url, LOTLINE_PUBLIC_URL: "http://lotline.test" });
    }

    /** SQLite: the largest the write-ahead log was after an import, bytes. */
    let largestLogAfterImport = 0;

    /** Runs an import that must succeed, printing one JSON object with at least the contract's four counts. */
    async function importJson(argv: string[]): Promise<Summary> {
      const run = await lotline(["import", ...argv, "--json"]);
      if (run.code !== 0) throw new Error(`lotline import ${argv.join(" ")} exited ${run.code}: ${run.stderr}`);
      if (TEST_DIALECT === "sqlite") {
        const log = `${testDatabase.url.slice("sqlite:".length)}-wal`;
        largestLogAfterImport = Math.max(largestLogAfterImport, existsSync(log) ? statSync(log).size : 0);
      }
      expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
      const summary = JSON.parse(run.stdout) as Summary;
      for (const key of ["read", "imported", "updated", "rejected"] as const) expect(summary[key]).toBeTypeOf("number");
      return summary;
    }

    const db = () => testDatabase.database.db;
    const geo = () => testDatabase.database;

    async function countOf(table: "parcels" | "buildings" | "addresses" | "layer_features", datasetId?: number) {
      let query = db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string | number>().as("n"));
      if (datasetId !== undefined) query = query.where("dataset_id", "=", datasetId);
      return Number((await query.executeTakeFirstOrThrow()).n);
    }

    async function datasetId(kind: "parcels" | "buildings" | "addresses" | "layer", name: string): Promise<number> {
      const row = await db()
        .selectFrom("datasets")
        .select("dataset_id")
        .where("kind", "=", kind)
        .where("name", "=", name)
        .executeTakeFirstOrThrow();
      return row.dataset_id;
    }

    function expectBalanced(summary: Summary) {
      expect(summary.read).toBe(
        summary.imported + summary.updated + summary.unchanged + summary.merged + summary.rejected,
      );
      expect(Object.values(summary.rejected_by_reason).reduce((sum, n) => sum + n, 0)).toBe(summary.rejected);
      // Every rejection is listed (there are far fewer than the listing limit) with its record number and reason.
      expect(summary.rejections).toHaveLength(summary.rejected);
      for (const rejection of summary.rejections) {
        expect(rejection.number).toBeGreaterThan(0);
        expect(rejection.reason).toMatch(/^[a-z_]+(:[A-Z_]+)?$/);
      }
    }

    beforeAll(async () => {
      testDatabase = await createTestDatabase();
      // Dependency order: parcels, then buildings (assigned to parcels), addresses (joined to parcels), layers.
      summaries.parcels = await importJson([
        "parcels",
        PARCELS_FILE,
        "--id-field",
        "ML",
        "--name",
        "Cambridge parcels FY2014",
        "--provider",
        "City of Cambridge GIS",
        "--license",
        "PDDL 1.0",
        "--vintage",
        "FY2014",
      ]);
      summaries.buildings = await importJson(["buildings", BUILDINGS_FILE]);
      summaries.addresses = await importJson([
        "addresses",
        ASSESSOR_FILE,
        "--address-column",
        "Location",
        "--join-parcel",
        "ML",
        "--city",
        "Cambridge",
        "--state",
        "MA",
      ]);
      for (const layer of LAYERS) {
        summaries.layers.set(
          layer.file,
          await importJson([
            "layer",
            join(DATA, "layers", layer.file),
            "--name",
            layer.name,
            "--provider",
            "City of Cambridge GIS",
            "--license",
            "PDDL 1.0",
          ]),
        );
      }

      const topology = JSON.parse(readFileSync(PARCELS_FILE, "utf8")) as Topology;
      const object = topology.objects.ASSESSING_ParcelsFY2014 as GeometryCollection<{ ML?: string }>;
      source = new Map(
        feature(topology, object).features.map((parcel, index) => [
          index + 1,
          { ml: parcel.properties?.ML?.trim(), geometry: parcel.geometry as Area },
        ]),
      );
    }, 300_000);
    afterAll(async () => {
      await testDatabase?.destroy();
    });

    // This test's own connection stays open throughout, as a running server's would.
    it.runIf(TEST_DIALECT === "sqlite")("leaves no write-ahead log the size of an import on disk", () => {
      expect(largestLogAfterImport).toBe(0);
    });

    describe("parcels (parcels-fy2014.topojson, --id-field ML)", () => {
      it("reads all 13,116 features and accounts for each one: imported, updated, merged or rejected", async () => {
        const summary = parcelsSummary();
        expect(summary).toMatchObject({ kind: "parcels", dataset: "Cambridge parcels FY2014", read: 13116 });
        expect(source.size).toBe(13116);
        expectBalanced(summary);
        expect(summary.updated).toBe(0);
        expect(await countOf("parcels")).toBe(summary.imported);
      });

      it("records the dataset's provenance as given on the command line", async () => {
        const row = await db()
          .selectFrom("datasets")
          .selectAll()
          .where("dataset_id", "=", await datasetId("parcels", "Cambridge parcels FY2014"))
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ provider: "City of Cambridge GIS", license: "PDDL 1.0", vintage: "FY2014" });
      });

      it("rejects every placeholder id (---, -, --MD, --R, ROAD) as placeholder_id, by feature number", () => {
        const rejected = new Map(parcelsSummary().rejections.map((rejection) => [rejection.number, rejection]));
        for (const placeholder of PARCEL_PLACEHOLDERS) {
          const numbers = [...source].filter(([, parcel]) => parcel.ml === placeholder).map(([number]) => number);
          expect(numbers.length, `features with ML ${placeholder}`).toBeGreaterThan(0);
          for (const number of numbers) {
            expect(rejected.get(number)?.reason, `feature ${number} (ML ${placeholder})`).toBe("placeholder_id");
          }
        }
        expect(parcelsSummary().rejected_by_reason.placeholder_id).toBeGreaterThanOrEqual(76);
      });

      it("stores every id that was not rejected, each exactly once: nothing is missing silently", async () => {
        const rejectedNumbers = new Set(parcelsSummary().rejections.map((rejection) => rejection.number));
        const expected = new Set<string>();
        for (const [number, parcel] of source) {
          if (rejectedNumbers.has(number)) continue;
          expect(parcel.ml, `feature ${number} has an id yet was imported`).toBeTruthy();
          expected.add(parcel.ml as string);
        }
        const stored = (await db().selectFrom("parcels").select("source_id").execute()).map((row) => row.source_id);
        expect(new Set(stored).size).toBe(stored.length);
        const storedSet = new Set(stored);
        expect([...expected].filter((ml) => !storedSet.has(ml))).toEqual([]);
        expect(stored.filter((ml) => !expected.has(ml))).toEqual([]);
        expect(stored).toHaveLength(parcelsSummary().imported);
      });

      it("writes the parcels in space order, not the file's: each row lies far nearer the one before", async () => {
        const middle = ([minLon, minLat, maxLon, maxLat]: BBox): LonLat => [
          (minLon + maxLon) / 2,
          (minLat + maxLat) / 2,
        ];
        const meanStep = (points: LonLat[]) => {
          let metres = 0;
          for (let i = 1; i < points.length; i++)
            metres += geodesicDistance(points[i - 1] as LonLat, points[i] as LonLat);
          return metres / (points.length - 1);
        };
        const inFile = [...source.values()].map((parcel) => middle(bboxOf(parcel.geometry)));
        const stored = await db()
          .selectFrom("parcels")
          .select(["min_lon", "min_lat", "max_lon", "max_lat"])
          .orderBy("parcel_id")
          .execute();
        const asStored = stored.map((row) => middle([row.min_lon, row.min_lat, row.max_lon, row.max_lat]));
        expect(meanStep(inFile)).toBeGreaterThan(1000);
        expect(meanStep(asStored)).toBeLessThan(meanStep(inFile) / 10);
      });

      it("folds the pieces of a lot published in several features (171-1, 268B-41, …) into one parcel covering them all", async () => {
        expect(parcelsSummary().merged).toBeGreaterThanOrEqual(1);
        const rejectedNumbers = new Set(parcelsSummary().rejections.map((rejection) => rejection.number));
        const pieces = new Map<string, Area[]>();
        for (const [number, parcel] of source) {
          if (!parcel.ml || rejectedNumbers.has(number)) continue;
          pieces.set(parcel.ml, [...(pieces.get(parcel.ml) ?? []), parcel.geometry]);
        }
        const repeated = [...pieces].filter(([, areas]) => areas.length > 1);
        expect(repeated.map(([ml]) => ml)).toEqual(expect.arrayContaining(["171-1", "268B-41"]));
        // Every imported piece beyond the first of a repeated id is merged into it.
        expect(parcelsSummary().merged).toBe(repeated.reduce((sum, [, areas]) => sum + areas.length - 1, 0));

        for (const [ml, areas] of repeated) {
          const rows = await db().selectFrom("parcels").selectAll().where("source_id", "=", ml).execute();
          expect(rows, `parcel ${ml}`).toHaveLength(1);
          const boundary = decodeGeometry(rows[0]?.boundary ?? new Uint8Array()) as Area;
          expect(["Polygon", "MultiPolygon"]).toContain(boundary.type);
          for (const piece of areas) {
            expect(containsPoint(boundary, representativePoint(piece) as LonLat), `a piece of ${ml}`).toBe(true);
          }
          const largest = Math.max(...areas.map(geodesicArea));
          const sum = areas.reduce((total, area) => total + geodesicArea(area), 0);
          expect(rows[0]?.area_m2).toBeGreaterThanOrEqual(largest * 0.999);
          expect(rows[0]?.area_m2).toBeLessThanOrEqual(sum * 1.001);
        }
        const lot171 = await db()
          .selectFrom("parcels")
          .select("boundary")
          .where("source_id", "=", "171-1")
          .executeTakeFirstOrThrow();
        expect(["MultiPolygon", "Polygon"]).toContain(decodeGeometry(lot171.boundary).type);
      });

      it("stores from its threads the very parcels an import on the main thread stores", async () => {
        // The CLI validated and measured the parcels on a thread (the database is not in memory); a database in
        // memory has no threads, so the same file imported there is prepared on the main thread.
        const inMemory = openDatabase("sqlite::memory:");
        try {
          await migrateToLatest(inMemory);
          const summary = await importFile(inMemory, { kind: "parcels", file: PARCELS_FILE, idField: "ML" });
          const { read, imported, merged, rejected } = parcelsSummary();
          expect(summary).toMatchObject({ read, imported, merged, rejected });
          const rowsOf = (database: Kysely<Schema>) =>
            database
              .selectFrom("parcels")
              .select(["source_id", "boundary", "attributes", "area_m2", "min_lon", "min_lat", "max_lon", "max_lat"])
              .orderBy("source_id")
              .execute();
          const [threaded, onMain] = [await rowsOf(db()), await rowsOf(inMemory.db)];
          const comparable = (rows: typeof threaded) =>
            rows.map((row) => ({ ...row, boundary: Buffer.from(row.boundary).toString("base64") }));
          expect(comparable(threaded)).toEqual(comparable(onMain));
        } finally {
          await inMemory.close();
        }
      });
    });

    describe("buildings (buildings-east-cambridge/Buildings.shp, state plane feet)", () => {
      it("imports all 2,166 footprints", async () => {
        const summary = buildingsSummary();
        expect(summary).toMatchObject({ kind: "buildings", read: 2166 });
        expectBalanced(summary);
        expect(summary.imported + summary.rejected).toBe(2166);
        expect(summary.imported).toBe(2166);
        expect(await countOf("buildings")).toBe(2166);
      });

      it("reprojects the footprints to WGS 84, inside East Cambridge and Kendall Square", async () => {
        const box = await db()
          .selectFrom("buildings")
          .select((eb) => [
            eb.fn.min("min_lon").as("west"),
            eb.fn.min("min_lat").as("south"),
            eb.fn.max("max_lon").as("east"),
            eb.fn.max("max_lat").as("north"),
          ])
          .executeTakeFirstOrThrow();
        expect(Number(box.west)).toBeGreaterThanOrEqual(-71.0959 - 0.001);
        expect(Number(box.east)).toBeLessThanOrEqual(-71.0702 + 0.001);
        expect(Number(box.south)).toBeGreaterThanOrEqual(42.3568 - 0.001);
        expect(Number(box.north)).toBeLessThanOrEqual(42.3727 + 0.001);
        // And they do fill that area, not a corner of it.
        expect(Number(box.west)).toBeLessThanOrEqual(-71.0959 + 0.001);
        expect(Number(box.north)).toBeGreaterThanOrEqual(42.3727 - 0.001);
      });

      it("assigns at least 2,100 of them a parcel (2,159 have their centroid inside one)", async () => {
        const assigned = Number(
          (
            await db()
              .selectFrom("buildings")
              .select((eb) => eb.fn.countAll<string | number>().as("n"))
              .where("parcel_id", "is not", null)
              .executeTakeFirstOrThrow()
          ).n,
        );
        expect(assigned).toBeGreaterThanOrEqual(2100);
        expect(assigned).toBeLessThanOrEqual(2166);
      });

      it("finds on its threads the same parcel and share for every building as the main thread does", async () => {
        // The CLI found the parcels on a thread of its own (the database is not in memory); here they are found
        // again on this thread, from the stored footprints.
        const buildings = await db()
          .selectFrom("buildings")
          .select(["footprint", "parcel_id", "parcel_share"])
          .orderBy("building_id")
          .execute();
        const owners = await new ParcelAssigner({ db: db(), dialect: geo().dialect }).owningParcels(
          buildings.map((building) => decodeGeometry(building.footprint) as Area),
        );
        expect(buildings.map(({ parcel_id, parcel_share }) => ({ parcel_id, parcel_share }))).toEqual(
          owners.map((owner) => ({ parcel_id: owner?.parcelId ?? null, parcel_share: owner?.share ?? null })),
        );
      });
    });

    describe("addresses (assessor-fy2014.csv, located through ML)", () => {
      it("reads all 27,528 rows and accounts for each", () => {
        const summary = addressesSummary();
        expect(summary).toMatchObject({ kind: "addresses", read: 27528 });
        expectBalanced(summary);
      });

      it("rejects the rows naming no stored parcel as parcel_not_found, by line number, and nothing else", async () => {
        const summary = addressesSummary();
        const notFound = summary.rejected_by_reason.parcel_not_found ?? 0;
        expect(notFound).toBeGreaterThanOrEqual(51);
        expect(notFound).toBeLessThanOrEqual(60);
        expect(summary.rejected).toBe(notFound);

        const lines = readFileSync(ASSESSOR_FILE, "utf8").split(/\r?\n/);
        const storedIds = new Set(
          (await db().selectFrom("parcels").select("source_id").execute()).map((row) => row.source_id),
        );
        const inParcelFile = new Set([...source.values()].map((parcel) => parcel.ml));
        let absentFromFile = 0;
        for (const rejection of summary.rejections) {
          expect(rejection.reason).toBe("parcel_not_found");
          // The number is the CSV line (the header is line 1): that line's ML is the one not found.
          const ml = lines[rejection.number - 1]?.match(/^"([^"]*)"/)?.[1]?.trim();
          expect(ml, `line ${rejection.number}`).toBeDefined();
          expect(rejection.detail).toContain(ml);
          expect(storedIds.has(ml as string), `line ${rejection.number}: ${ml}`).toBe(false);
          if (!inParcelFile.has(ml)) absentFromFile += 1;
        }
        // The README's 51 rows whose ML no parcel has; any others name a parcel the parcel import rejected.
        expect(absentFromFile).toBe(51);
      });

      it("merges the rows repeating one address (condominium units) into one address", async () => {
        expect(addressesSummary().merged).toBeGreaterThan(0);
        const bellis = await db()
          .selectFrom("addresses")
          .selectAll()
          .where("street", "=", "BELLIS CIR")
          .where("number", "=", "9")
          .execute();
        expect(bellis.map((row) => ({ line: addressLine(row), parcel_id: row.parcel_id }))).toEqual([
          { line: "9 BELLIS CIR, CAMBRIDGE, MA", parcel_id: expect.any(Number) },
        ]);
        expect(await countOf("addresses")).toBe(addressesSummary().imported);
      });
    });

    describe("layers (layers/*.geojson)", () => {
      it.each(LAYERS)("$file: all $count features imported, none rejected", async ({ file, name, count }) => {
        const summary = summaries.layers.get(file) as Summary;
        expect(summary).toMatchObject({ kind: "layer", dataset: name, read: count, imported: count, rejected: 0 });
        expectBalanced(summary);
        expect(await countOf("layer_features", await datasetId("layer", name))).toBe(count);
      });
    });

    describe("importing again", () => {
      it("the buildings file finds all 2,166 unchanged and adds none", { timeout: 180_000 }, async () => {
        const before = await db()
          .selectFrom("buildings")
          .select(["building_id", "parcel_id"])
          .orderBy("building_id")
          .execute();
        const again = await importJson(["buildings", BUILDINGS_FILE]);
        expect(again).toMatchObject({ read: 2166, imported: 0, updated: 0, unchanged: 2166, rejected: 0, merged: 0 });
        expect(await countOf("buildings")).toBe(2166);
        const after = await db()
          .selectFrom("buildings")
          .select(["building_id", "parcel_id"])
          .orderBy("building_id")
          .execute();
        // Same rows, same parcels: links to a building stay valid across imports.
        expect(after).toEqual(before);
      });

      it("a layer keeps its feature count, each feature unchanged", async () => {
        const layer = LAYERS[2];
        const again = await importJson(["layer", join(DATA, "layers", layer.file), "--name", layer.name]);
        expect(again).toMatchObject({
          read: layer.count,
          imported: 0,
          updated: 0,
          unchanged: layer.count,
          rejected: 0,
        });
        expect(await countOf("layer_features", await datasetId("layer", layer.name))).toBe(layer.count);
      });
    });

    describe("what a user finds in the imported data", () => {
      const gore = async () => {
        const [first] = await locateAddress(geo(), "120 Gore Street");
        if (!first) throw new Error("120 Gore Street not found");
        return first;
      };

      it("120 Gore Street is found exactly, on a parcel holding a BLDG and an OUTBLDG", async () => {
        const candidate = await gore();
        expect(candidate).toMatchObject({ address: "120 GORE ST, CAMBRIDGE, MA", score: 1 });
        expect(candidate.parcel_id).toEqual(expect.any(Number));
        const buildings = await buildingsOfParcel(geo(), candidate.parcel_id as number);
        const types = buildings.map((building) => building.attributes.TYPE);
        expect(types).toContain("BLDG");
        expect(types).toContain("OUTBLDG");
        for (const building of buildings) expect(building.parcelId).toBe(candidate.parcel_id);
      });

      it("30 Sciarappa St finds the house-number range 30-32 SCIARAPPA ST", async () => {
        const [first] = await locateAddress(geo(), "30 Sciarappa St");
        expect(first?.address).toBe("30-32 SCIARAPPA ST, CAMBRIDGE, MA");
        expect(first?.score).toBeGreaterThanOrEqual(0.9);
      });

      it("reverse-locating the address's location gives back its parcel", async () => {
        const candidate = await gore();
        const found = await reverseLocate(geo(), [candidate.location.lon, candidate.location.lat]);
        expect(found.parcel?.parcelId).toBe(candidate.parcel_id);
        expect(found.parcel?.sourceId).toBeTruthy();
        expect(found.address?.parcel_id).toBe(candidate.parcel_id);
      });

      it("the parcel at a building's inside point is the building's assigned parcel, for almost every building", async () => {
        const buildings = await db().selectFrom("buildings").select(["footprint", "parcel_id"]).execute();
        let agree = 0;
        for (const building of buildings) {
          const point = representativePoint(decodeGeometry(building.footprint) as Area) as LonLat;
          if (((await parcelAt(geo(), point))?.parcelId ?? null) === building.parcel_id) agree += 1;
        }
        expect(agree / buildings.length).toBeGreaterThanOrEqual(0.95);
      });

      it("the nearest fire station to 120 Gore St is within 2 km and has a name", async () => {
        const candidate = await gore();
        const stations = await datasetId("layer", "Fire stations");
        const [nearest] = await nearestLayerFeatures(geo(), stations, [candidate.location.lon, candidate.location.lat]);
        expect(nearest?.distanceM).toBeGreaterThan(0);
        expect(nearest?.distanceM).toBeLessThanOrEqual(2000);
        expect(nearest?.feature.attributes.SITE_NAME).toEqual(expect.stringMatching(/\S/));
      });

      it("the nearest fire station and hydrant are the same wherever the search starts, and the datasets count their rows", async () => {
        const layers = await db()
          .selectFrom("datasets")
          .select(["dataset_id", "name", "record_count", "min_lon", "min_lat", "max_lon", "max_lat"])
          .where("name", "in", ["Fire stations", "Hydrants"])
          .orderBy("name")
          .execute();
        expect(layers.map((layer) => layer.name)).toEqual(["Fire stations", "Hydrants"]);
        const parcels = await db().selectFrom("parcels").select("boundary").orderBy("parcel_id").execute();
        const points = parcels
          .filter((_, i) => i % 500 === 0)
          .map((parcel) => representativePoint(decodeGeometry(parcel.boundary) as Area) as LonLat);
        for (const layer of layers) {
          const { count } = await db()
            .selectFrom("layer_features")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("dataset_id", "=", layer.dataset_id)
            .executeTakeFirstOrThrow();
          expect(Number(layer.record_count)).toBe(Number(count));
          const fromDensity = firstRadiusOf(extentOf(layer), Number(layer.record_count));
          for (const point of points) {
            const found = await Promise.all(
              [125, fromDensity, 20_000].map((firstRadiusM) =>
                nearestLayerFeatures(geo(), layer.dataset_id, point, { count: 2, firstRadiusM }),
              ),
            );
            const answers = found.map((hits) => hits.map((hit) => [hit.feature.featureId, hit.distanceM]));
            expect(answers[0]).toHaveLength(2);
            expect(answers[1]).toEqual(answers[0]);
            expect(answers[2]).toEqual(answers[0]);
          }
        }
      });

      it("a point inside a FEMA 100-year polygon gets that polygon; a point far from the river gets none", async () => {
        const flood = await datasetId("layer", "FEMA 100-year floodplain");
        const zones = await db().selectFrom("layer_features").selectAll().where("dataset_id", "=", flood).execute();
        const zone = zones[0];
        if (!zone) throw new Error("no flood polygons");
        const inside = representativePoint(decodeGeometry(zone.geometry) as Area) as LonLat;
        const hits = await layerFeaturesIntersecting(geo(), flood, square(inside, 0.00005));
        expect(hits.map((hit) => hit.featureId)).toContain(zone.feature_id);
        expect(hits[0]?.attributes.fld_zone).toBe("AE");

        // Harvard Yard, on the high ground well away from the Charles and Alewife Brook.
        expect(await layerFeaturesIntersecting(geo(), flood, square([-71.1167, 42.3745], 0.0005))).toEqual([]);
      });

      it("buildings near a footprint come back nearest first, the footprint itself at distance 0", async () => {
        const [row] = await db()
          .selectFrom("buildings")
          .select(["building_id", "footprint"])
          .where("parcel_id", "is not", null)
          .orderBy("building_id")
          .offset(100)
          .limit(1)
          .execute();
        if (!row) throw new Error("no building");
        const near = await buildingsNear(geo(), decodeGeometry(row.footprint) as Area, 50);
        expect(near.find((hit) => hit.building.buildingId === row.building_id)?.distanceM).toBe(0);
        expect(near.length).toBeGreaterThan(1);
        const distances = near.map((hit) => hit.distanceM);
        expect(distances).toEqual([...distances].sort((a, b) => a - b));
        expect(distances.at(-1)).toBeGreaterThan(0);
        expect(distances.at(-1)).toBeLessThanOrEqual(50);
      });
    });
  },
);

/** A small square polygon centred on `[lon, lat]`, `half` degrees each way. */
function square([lon, lat]: LonLat, half: number): Area {
  return {
    type: "Polygon",
    coordinates: [
      [
        [lon - half, lat - half],
        [lon + half, lat - half],
        [lon + half, lat + half],
        [lon - half, lat + half],
        [lon - half, lat - half],
      ],
    ],
  };
}
