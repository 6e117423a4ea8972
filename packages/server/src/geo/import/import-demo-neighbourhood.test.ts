import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/database.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { locateAddress } from "../locate/locate-address.js";
import { buildingsOfParcel } from "../queries/buildings-of-parcel.js";
import { layerFeaturesIntersecting } from "../queries/layer-features-intersecting.js";
import { nearestLayerFeatures } from "../queries/nearest-layer-features.js";
import { addressLine } from "../store/address-line.js";
import { decodeGeometry } from "../store/geometry-codec.js";
import type { Area } from "../types.js";
import { DEMO_LAYERS, importDemoNeighbourhood } from "./import-demo-neighbourhood.js";

describe("the generated demo neighbourhood, loaded through the importers", () => {
  let test: TestDatabase;
  let database: Database;
  let firstLoad: boolean;

  beforeAll(async () => {
    test = await createTestDatabase();
    database = test.database;
    firstLoad = await importDemoNeighbourhood(database);
  });
  afterAll(() => test.destroy());

  const counts = async () =>
    Promise.all(
      (["parcels", "buildings", "addresses", "layer_features", "datasets"] as const).map(async (table) => {
        const row = await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      }),
    );

  it("loads once: a second start finds it complete and writes nothing", async () => {
    expect(firstLoad).toBe(true);
    const before = await counts();
    expect(before.every((count) => count > 0)).toBe(true);
    expect(await importDemoNeighbourhood(database)).toBe(false);
    expect(await counts()).toEqual(before);
  });

  it("labels every dataset as generated", async () => {
    const datasets = await database.db.selectFrom("datasets").selectAll().execute();
    expect(datasets.length).toBe(6);
    for (const dataset of datasets) {
      expect(dataset.name.toLowerCase()).toContain("generated");
      expect(dataset.provider).toContain("generated");
      expect(dataset.license).toContain("not real data");
    }
  });

  it("imports every generated record, rejecting none", async () => {
    const imports = await database.db.selectFrom("imports").select("summary").execute();
    for (const { summary } of imports) {
      const parsed = JSON.parse(summary ?? "{}");
      expect(parsed.rejected, `${parsed.kind} ${parsed.dataset}: ${JSON.stringify(parsed.rejections)}`).toBe(0);
      expect(parsed.read).toBeGreaterThan(0);
    }
  });

  it("locates its addresses to their parcel and buildings", async () => {
    const samples = await database.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .limit(25)
      .execute();
    let withBuildings = 0;
    for (const sample of samples) {
      const [best] = await locateAddress(database, addressLine(sample));
      expect(best?.address).toBe(addressLine(sample));
      expect(best?.score).toBe(1);
      expect(best?.parcel_id).toBe(sample.parcel_id);
      if (best?.parcel_id && (await buildingsOfParcel(database, best.parcel_id)).length > 0) withBuildings += 1;
    }
    expect(withBuildings).toBeGreaterThan(samples.length / 2);
  });

  it("puts some parcels in the generated flood zone, and a fire station within reach of every parcel", async () => {
    const layers = await database.db
      .selectFrom("datasets")
      .select(["dataset_id", "name"])
      .where("kind", "=", "layer")
      .execute();
    const layerId = (name: string) => layers.find((layer) => layer.name === name)?.dataset_id ?? -1;
    const parcels = await database.db.selectFrom("parcels").select(["boundary", "min_lon", "min_lat"]).execute();
    let flooded = 0;
    for (const parcel of parcels) {
      if (
        (
          await layerFeaturesIntersecting(
            database,
            layerId(DEMO_LAYERS.floodZones),
            decodeGeometry(parcel.boundary) as Area,
          )
        ).length
      ) {
        flooded += 1;
      }
    }
    expect(flooded).toBeGreaterThan(0);
    expect(flooded).toBeLessThan(parcels.length / 2);
    const first = parcels[0];
    if (!first) throw new Error("no parcels");
    const [station] = await nearestLayerFeatures(database, layerId(DEMO_LAYERS.fireStations), [
      first.min_lon,
      first.min_lat,
    ]);
    expect(station?.distanceM).toBeLessThan(5000);
  });
});
