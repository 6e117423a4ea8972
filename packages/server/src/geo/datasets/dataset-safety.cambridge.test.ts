import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/run-cli.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import { createJobRunner } from "../../workers/background-work.js";
import { importDemoNeighbourhood } from "../import/import-demo-neighbourhood.js";
import type { DatasetListing } from "./list-datasets.js";

/**
 * What an operator may do to the real Cambridge, MA data (see the data README in ../shared/data) without hurting it:
 * typos and wrong columns are refused with nothing changed, the same features under another name do not double a
 * property's buildings or addresses, the demo's generated data never shows beside real data, and datasets can be
 * listed and removed with the property records computed again. Driven through `lotline` and real HTTP.
 */

const DATA = fileURLToPath(new URL("../../../../../../shared/data/cambridge/", import.meta.url));
const PARCELS = join(DATA, "parcels-fy2014.topojson");
const BUILDINGS = join(DATA, "buildings-east-cambridge/Buildings.shp");
const ASSESSOR = join(DATA, "assessor-fy2014.csv");
const FLOOD = join(DATA, "layers/fema-floodplain-100yr.geojson");
const POOLS = join(DATA, "layers/swimming-pools.geojson");
const PRESENT = [PARCELS, BUILDINGS, ASSESSOR, FLOOD, POOLS].every((path) => existsSync(path));

const FLOOD_LAYER = "FEMA 1% flood zone";
/** 165 2nd St: one building of 2,918.85 m² on its lot, in the buildings file's area. */
const SECOND_ST = "165 2nd St, Cambridge, MA";

describe.skipIf(!PRESENT)(
  `imports that cannot hurt the Cambridge data${PRESENT ? "" : " — SKIPPED: ../shared/data/cambridge is missing"}`,
  () => {
    let test: TestApp;
    let tenant: TestTenant;
    let token: string;
    let folder: string;
    let propertyId: number;

    const lotline = (...argv: string[]) =>
      runCli(argv, { LOTLINE_DATABASE_URL: test.testDatabase.url, LOTLINE_PUBLIC_URL: test.url });
    const api = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${test.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      });
      // biome-ignore lint/suspicious/noExplicitAny: the test reads what a JSON client would.
      return { status: response.status, body: (await response.json()) as any };
    };
    const datasets = async (): Promise<DatasetListing[]> => {
      const run = await lotline("datasets", "list", "--json");
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout).datasets;
    };
    const dataset = async (name: string) => (await datasets()).find((entry) => entry.name === name);
    const record = async () => (await api(`/v1/properties/${propertyId}`)).body;
    /** Asserts a refused command: exit 2 and one line on stderr, nothing on stdout. */
    const expectRefused = (run: { code: number; stdout: string; stderr: string }, pattern: RegExp) => {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(pattern);
    };

    beforeAll(async () => {
      test = await createTestApp({}, { listen: true });
      folder = mkdtempSync(join(tmpdir(), "lotline-safety-"));
      await importDemoNeighbourhood(test.services.database);
      for (const argv of [
        ["parcels", PARCELS, "--id-field", "ML", "--provider", "City of Cambridge GIS", "--license", "PDDL 1.0"],
        ["buildings", BUILDINGS],
        [
          "addresses",
          ASSESSOR,
          "--address-column",
          "Location",
          "--join-parcel",
          "ML",
          "--city",
          "Cambridge",
          "--state",
          "MA",
        ],
        ["layer", FLOOD, "--name", FLOOD_LAYER, "--provider", "FEMA"],
      ]) {
        const run = await lotline("import", ...argv, "--json");
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
      }
      tenant = await createTenant(test.services);
      token = await accessTokenFor(test, tenant);
      const placed = await api("/v1/orders", { method: "POST", body: JSON.stringify({ address: SECOND_ST }) });
      expect(placed.status).toBe(202);
      propertyId = placed.body.property_id;
      await createJobRunner(test.services).drain();
    }, 240_000);
    afterAll(async () => {
      await test?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it("an order for 165 2nd St finds its one building", async () => {
      const property = await record();
      expect(property.orders[0].status).toBe("complete");
      expect(property.buildings).toHaveLength(1);
      expect(property.buildings[0].area_m2).toBeCloseTo(2918.85, 1);
    });

    it("refuses an unknown --format before reading, and the layer keeps its 21 features", async () => {
      const run = await lotline("import", "layer", FLOOD, "--name", FLOOD_LAYER, "--format", "bogus");
      expectRefused(run, /unknown format "bogus"; one of geojson, geojsonseq, topojson, shapefile, geopackage, csv/);
      expect((await dataset(FLOOD_LAYER))?.records).toBe(21);
    });

    it("refuses a named column the file lacks, naming the columns it has, and creates no dataset", async () => {
      const parcels = await lotline("import", "parcels", PARCELS, "--id-field", "MLX", "--name", "Typo parcels");
      expectRefused(parcels, /no column MLX; columns are .*\bML\b/);
      const addresses = await lotline(
        "import",
        "addresses",
        ASSESSOR,
        "--address-column",
        "Addr",
        "--join-parcel",
        "ML",
        "--name",
        "Typo addresses",
      );
      expectRefused(addresses, /no column Addr; columns are .*\bLocation\b/);
      const names = (await datasets()).map((entry) => entry.name);
      expect(names).not.toContain("Typo parcels");
      expect(names).not.toContain("Typo addresses");
    });

    it("refuses to empty a layer without --allow-empty, and empties it with it", async () => {
      expect((await lotline("import", "layer", POOLS, "--name", "Pools")).code).toBe(0);
      const empty = join(folder, "empty.geojson");
      writeFileSync(empty, JSON.stringify({ type: "FeatureCollection", features: [] }));
      expectRefused(await lotline("import", "layer", empty, "--name", "Pools"), /no records; give --allow-empty/);
      expect((await dataset("Pools"))?.records).toBe(64);
      expect((await lotline("import", "layer", empty, "--name", "Pools", "--allow-empty")).code).toBe(0);
      expect((await dataset("Pools"))?.records).toBe(0);
      expect((await lotline("datasets", "remove", "Pools")).code).toBe(0);
    });

    it("refuses a file whose rejections pass --max-rejected, and keeps it under a higher limit", async () => {
      const mixed = join(folder, "mixed.geojson");
      const square = (x: number) => ({
        type: "Polygon",
        coordinates: [
          [
            [x, 40],
            [x + 0.001, 40],
            [x + 0.001, 40.001],
            [x, 40],
          ],
        ],
      });
      const features = [
        { type: "Feature", properties: { ID: "1" }, geometry: square(-100) },
        { type: "Feature", properties: { ID: "2" }, geometry: square(-100.01) },
        { type: "Feature", properties: {}, geometry: square(-100.02) },
      ];
      writeFileSync(mixed, JSON.stringify({ type: "FeatureCollection", features }));
      const refused = await lotline("import", "parcels", mixed, "--id-field", "ID", "--name", "Mixed");
      expectRefused(
        refused,
        /1 of 3 records rejected \(1 × missing_id: no value in ID\), more than --max-rejected 10%/,
      );
      expect(await dataset("Mixed")).toBeUndefined();
      const kept = await lotline(
        "import",
        "parcels",
        mixed,
        "--id-field",
        "ID",
        "--name",
        "Mixed",
        "--max-rejected",
        "50%",
      );
      expect(kept.code).toBe(0);
      expect((await dataset("Mixed"))?.records).toBe(2);
      expect((await lotline("datasets", "remove", "Mixed", "--kind", "parcels")).code).toBe(0);
      expectRefused(
        await lotline("import", "parcels", mixed, "--id-field", "ID", "--max-rejected", "x"),
        /--max-rejected/,
      );
    });

    it("the same buildings under another name are refused, naming the dataset to --replace", async () => {
      const run = await lotline("import", "buildings", BUILDINGS, "--name", "Buildings again");
      expectRefused(
        run,
        /duplicate_of_other_dataset: the same as building #\d+ of dataset "Buildings".*--replace "Buildings"/,
      );
      expect(await dataset("Buildings again")).toBeUndefined();
      const property = await record();
      expect(property.buildings).toHaveLength(1);
      expect(property.buildings[0].area_m2).toBeCloseTo(2918.85, 1);
    });

    it("--replace swaps the datasets in one import and computes the property records again", async () => {
      const run = await lotline(
        "import",
        "buildings",
        BUILDINGS,
        "--name",
        "Buildings again",
        "--replace",
        "Buildings",
        "--json",
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const output = JSON.parse(run.stdout);
      expect(output.rejected).toBeLessThan(output.read / 10);
      expect(output.properties_recomputed).toBeGreaterThanOrEqual(1);
      expect(await dataset("Buildings")).toBeUndefined();
      const property = await record();
      expect(property.buildings).toHaveLength(1);
      expect(property.buildings[0].area_m2).toBeCloseTo(2918.85, 1);
      expect(property.data.structures.provenance.map((entry: { dataset: string }) => entry.dataset)).toContain(
        "Buildings again",
      );
    });

    it("addresses imported again without --city are the same addresses, not a second set", async () => {
      const before = (await dataset("assessor-fy2014"))?.records;
      const again = await lotline(
        "import",
        "addresses",
        ASSESSOR,
        "--address-column",
        "Location",
        "--join-parcel",
        "ML",
        "--json",
      );
      expect(again.code).toBe(0);
      const { imported, updated } = JSON.parse(again.stdout);
      // One row reads differently without a city to fill in: in "126 OXFORD ST PSC", PSC is then taken for the city.
      expect(imported).toBeLessThanOrEqual(1);
      expect(updated).toBeGreaterThan(27_000);
      expect((await dataset("assessor-fy2014"))?.records).toBe((before ?? 0) + imported);
      const found = await api(`/v1/addresses?q=${encodeURIComponent("75 Winter St")}`);
      expect(found.status).toBe(200);
      const displays = found.body.data.map((candidate: { address: string }) => candidate.address);
      expect(displays.filter((display: string) => display.startsWith("75 WINTER ST"))).toEqual([
        "75 WINTER ST, CAMBRIDGE, MA",
      ]);
    });

    it("the same addresses under another name are refused, naming the dataset", async () => {
      const run = await lotline(
        "import",
        "addresses",
        ASSESSOR,
        "--address-column",
        "Location",
        "--join-parcel",
        "ML",
        "--name",
        "Assessor again",
      );
      expectRefused(
        run,
        /duplicate_of_other_dataset: .* is already in dataset "assessor-fy2014".*--replace "assessor-fy2014"/,
      );
    });

    it("a Cambridge record shows only the layers covering it: never the demo's generated ones", async () => {
      const layers = (await record()).third_party.layers.map((layer: { dataset: string }) => layer.dataset);
      expect(layers).toEqual([FLOOD_LAYER]);
    });

    it("lists every dataset with kind, namespace, provenance, counts, import time and extent", async () => {
      const list = await datasets();
      const parcels = list.find((entry) => entry.name === "parcels-fy2014");
      expect(parcels).toMatchObject({
        kind: "parcels",
        namespace: "main",
        provider: "City of Cambridge GIS",
        license: "PDDL 1.0",
      });
      expect(parcels?.records).toBeGreaterThan(13_000);
      expect(Date.parse(parcels?.imported_at ?? "")).toBeGreaterThan(Date.now() - 3_600_000);
      const [west, south, east, north] = parcels?.extent ?? [];
      expect(west).toBeCloseTo(-71.16, 1);
      expect(east).toBeCloseTo(-71.06, 1);
      expect(south).toBeCloseTo(42.35, 1);
      expect(north).toBeCloseTo(42.4, 1);
      const demo = list.filter((entry) => entry.namespace === "demo");
      expect(demo.map((entry) => entry.kind).sort()).toEqual([
        "addresses",
        "buildings",
        "layer",
        "layer",
        "layer",
        "parcels",
      ]);
      const text = await lotline("datasets", "list");
      expect(text.stdout).toContain(`${FLOOD_LAYER} (layer)`);
      expect(text.stdout).toMatch(/21 records \(polygons\)/);
    });

    it("an import cannot take a name of the demo's generated data", async () => {
      const demoLayer = (await datasets()).find((entry) => entry.namespace === "demo" && entry.kind === "layer");
      const run = await lotline("import", "layer", FLOOD, "--name", demoLayer?.name ?? "");
      expectRefused(run, /of the demo namespace; choose another --name/);
    });

    it("removes a dataset and computes the records it touched again", async () => {
      const run = await lotline("datasets", "remove", FLOOD_LAYER, "--json");
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout)).toMatchObject({ name: FLOOD_LAYER, kind: "layer", removed: 21 });
      expect(JSON.parse(run.stdout).properties_recomputed).toBeGreaterThanOrEqual(1);
      expect(await dataset(FLOOD_LAYER)).toBeUndefined();
      expect((await record()).third_party.layers).toEqual([]);
      expectRefused(await lotline("datasets", "remove", FLOOD_LAYER), /no dataset "FEMA 1% flood zone"/);
    });
  },
);
