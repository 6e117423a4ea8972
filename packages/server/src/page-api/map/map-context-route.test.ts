import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bboxOf, representativePoint } from "../../geo/geometry/index.js";
import { DEMO_LAYERS, importDemoNeighbourhood } from "../../geo/import/import-demo-neighbourhood.js";
import type { Building, Parcel } from "../../geo/store/geo-rows.js";
import { decodeGeometry } from "../../geo/store/geometry-codec.js";
import { attributesFrom } from "../../geo/store/stored-attributes.js";
import type { Area } from "../../geo/types.js";
import { createTenant, createTestApp, type TestApp } from "../../test/test-app.js";
import { demoLotWithBuildings, iframeTokenFor, type PageCall, pageCaller } from "../test-page-api.js";

interface Feature {
  id: number;
  geometry: unknown;
  properties: Record<string, unknown>;
}

describe("GET /embed/api/map/context (the map's base)", () => {
  let test: TestApp;
  let page: PageCall;
  let lot: { parcel: Parcel; buildings: Building[] };

  beforeAll(async () => {
    test = await createTestApp();
    await importDemoNeighbourhood(test.services.database);
    page = pageCaller(test, await iframeTokenFor(test, (await createTenant(test.services)).orgId));
    lot = await demoLotWithBuildings(test, 2);
  });
  afterAll(() => test.close());

  const context = async (bbox: string) => {
    const response = await page("GET", `/embed/api/map/context?bbox=${encodeURIComponent(bbox)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  const datasetNamed = (kind: "parcels" | "buildings" | "layer", name?: string) => {
    let query = test.services.db
      .selectFrom("datasets")
      .select(["name as dataset", "provider", "license"])
      .where("kind", "=", kind);
    if (name) query = query.where("name", "=", name);
    return query.executeTakeFirstOrThrow();
  };

  it("draws the parcels and buildings around a lot, with small properties and their attributions", async () => {
    const [west, south, east, north] = bboxOf(lot.parcel.boundary);
    const answer = await context([west, south, east, north].join(","));
    expect(answer.parcels.type).toBe("FeatureCollection");
    const parcel = answer.parcels.features.find((f: Feature) => f.id === lot.parcel.parcelId);
    expect(parcel).toEqual({
      type: "Feature",
      id: lot.parcel.parcelId,
      geometry: lot.parcel.boundary,
      properties: { parcel_id: lot.parcel.parcelId, source_id: lot.parcel.sourceId },
    });
    // Its neighbours touch its lot lines, so they meet its box too; but not the whole town.
    expect(answer.parcels.features.length).toBeGreaterThan(1);
    expect(answer.parcels.features.length).toBeLessThan(30);
    for (const building of lot.buildings) {
      const drawn = answer.buildings.features.find((f: Feature) => f.id === building.buildingId);
      expect(drawn?.properties).toEqual({ building_id: building.buildingId, parcel_id: lot.parcel.parcelId });
      expect(drawn?.geometry).toEqual(building.footprint);
    }
    expect(answer.attribution).toEqual(
      expect.arrayContaining([await datasetNamed("parcels"), await datasetNamed("buildings")]),
    );
    expect(answer.truncated).toBe(false);
  });

  it("draws the polygon layers, named, and leaves the point layers out", async () => {
    const flood = await test.services.db
      .selectFrom("layer_features")
      .innerJoin("datasets", "datasets.dataset_id", "layer_features.dataset_id")
      .leftJoin("attribute_keys", "attribute_keys.keys_id", "layer_features.attribute_keys_id")
      .select([
        "layer_features.feature_id",
        "layer_features.geometry",
        "attribute_keys.keys",
        "layer_features.attributes",
      ])
      .where("datasets.name", "=", DEMO_LAYERS.floodZones)
      .orderBy("feature_id")
      .executeTakeFirstOrThrow();
    const [lon = 0, lat = 0] = representativePoint(decodeGeometry(flood.geometry) as Area);
    const answer = await context(`${lon - 0.0001},${lat - 0.0001},${lon + 0.0001},${lat + 0.0001}`);
    const zone = answer.layers.features.find((f: Feature) => f.id === flood.feature_id);
    expect(zone?.properties).toEqual({
      layer: DEMO_LAYERS.floodZones,
      name: attributesFrom(flood.keys, flood.attributes).fld_zone,
    });
    expect(["AE", "X"]).toContain(zone?.properties.name);
    expect(answer.attribution).toContainEqual(await datasetNamed("layer", DEMO_LAYERS.floodZones));
    const layers = new Set(answer.layers.features.map((f: Feature) => f.properties.layer));
    expect(layers.has(DEMO_LAYERS.hydrants)).toBe(false);
    expect(layers.has(DEMO_LAYERS.fireStations)).toBe(false);
  });

  it("answers everything in a box holding the whole neighbourhood, each dataset attributed once", async () => {
    const { db } = test.services;
    const extent = await db
      .selectFrom("parcels")
      .select((eb) => [
        eb.fn.min("min_lon").as("west"),
        eb.fn.min("min_lat").as("south"),
        eb.fn.max("max_lon").as("east"),
        eb.fn.max("max_lat").as("north"),
      ])
      .executeTakeFirstOrThrow();
    const [west, south, east, north] = [extent.west, extent.south, extent.east, extent.north].map(Number) as [
      number,
      number,
      number,
      number,
    ];
    expect(Math.max(east - west, north - south)).toBeLessThan(0.05);
    const answer = await context([west, south, east, north].join(","));
    const count = async (table: "parcels" | "buildings") =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(answer.parcels.features.length).toBe(await count("parcels"));
    // More than one batch of candidates, so reading on past the first batch is exercised too.
    expect(answer.buildings.features.length).toBeGreaterThan(500);
    expect(answer.buildings.features.length).toBe(await count("buildings"));
    expect(answer.truncated).toBe(false);
    const names = answer.attribution.map((a: { dataset: string }) => a.dataset);
    expect(new Set(names).size).toBe(names.length);
    for (const a of answer.attribution) {
      expect(a.dataset.toLowerCase()).toContain("generated");
      expect(Object.keys(a).sort()).toEqual(["dataset", "license", "provider"]);
    }
  });

  it("answers empty collections where the service has no data", async () => {
    expect(await context("10,10,10.01,10.01")).toEqual({
      parcels: { type: "FeatureCollection", features: [] },
      buildings: { type: "FeatureCollection", features: [] },
      layers: { type: "FeatureCollection", features: [] },
      attribution: [],
      truncated: false,
    });
  });

  it("refuses a box that is not one (invalid_bbox) and one wider than 0.05° either way (bbox_too_large)", async () => {
    const cases: Array<[string, string]> = [
      ["a,b,c,d", "invalid_bbox"],
      ["1,2,3", "invalid_bbox"],
      ["1,2,3,4,5", "invalid_bbox"],
      [",,,", "invalid_bbox"],
      ["-93.37,41.95,-93.38,41.96", "invalid_bbox"], // west > east
      ["-93.38,41.96,-93.37,41.95", "invalid_bbox"], // south > north
      ["-93.38,41.95,-93.38,41.96", "invalid_bbox"], // no width
      ["-181,41.95,-180.99,41.96", "invalid_bbox"],
      ["0,89.99,0.01,90.01", "invalid_bbox"],
      ["Infinity,0,0,1", "invalid_bbox"],
      ["0x5d,41.95,93.01,41.96", "invalid_bbox"], // 0x5d would be 93: hexadecimal is no decimal
      ["-93.40,41.95,-93.34,41.96", "bbox_too_large"],
      ["-93.38,41.90,-93.37,41.951", "bbox_too_large"],
    ];
    for (const [bbox, code] of cases) {
      const response = await page("GET", `/embed/api/map/context?bbox=${encodeURIComponent(bbox)}`);
      expect(response.statusCode, bbox).toBe(400);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json().code, bbox).toBe(code);
    }
    expect((await page("GET", "/embed/api/map/context")).json().code).toBe("invalid_request");
    expect((await page("GET", "/embed/api/map/context?bbox=-93.40,41.94,-93.35,41.99")).statusCode).toBe(200);
  });

  it("needs an iframe session", async () => {
    const response = await page("GET", "/embed/api/map/context?bbox=0,0,0.01,0.01", { token: "not-a-jwt" });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("session_ended");
  });

  it("keeps the page API out of the published OpenAPI document", async () => {
    const document = (await test.app.inject({ url: "/v1/openapi.json" })).json();
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
    const paths = Object.keys(document.paths);
    expect(paths).toContain("/v1/properties/{property_id}");
    expect(paths.filter((path) => path.startsWith("/embed"))).toEqual([]);
    expect(JSON.stringify(document)).not.toContain("/embed/api");
  });
});
