import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../errors.js";
import {
  bboxOf,
  distanceBetweenAreas,
  geodesicArea,
  intersectionArea,
  representativePoint,
} from "../geo/geometry/index.js";
import { importFile } from "../geo/import/import-file.js";
import { parcelAt } from "../geo/queries/parcel-at.js";
import type { Parcel } from "../geo/store/geo-rows.js";
import { decodeGeometry } from "../geo/store/geometry-codec.js";
import { readBuildings, readParcels } from "../geo/store/read-spatial-rows.js";
import type { Area, LonLat } from "../geo/types.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import {
  computeProducts,
  NO_PARCEL_AT_LOCATION,
  OrderFailure,
  type PointLayerResult,
  type PolygonLayerResult,
  PRODUCTS,
  type ProductInput,
  type ThirdPartyResult,
  USER_DRAWN,
} from "./index.js";

/**
 * The products on the real Cambridge, MA files (see the data README in ../shared/data): parcels, the East Cambridge
 * building footprints and three city layers, imported once through `importFile` as an operator would.
 */

const DATA = fileURLToPath(new URL("../../../../../shared/data/cambridge/", import.meta.url));
const PARCELS_FILE = join(DATA, "parcels-fy2014.topojson");
const BUILDINGS_FILE = join(DATA, "buildings-east-cambridge/Buildings.shp");
const ASSESSOR_FILE = join(DATA, "assessor-fy2014.csv");
const LAYERS = {
  flood: {
    file: "fema-floodplain-100yr.geojson",
    name: "FEMA 100-year floodplain",
    vintage: "FIRM effective 2025-07-08",
  },
  stations: { file: "fire-stations.geojson", name: "Fire stations" },
  hydrants: { file: "hydrants.geojson", name: "Hydrants" },
} as const;
const PRESENT = [
  PARCELS_FILE,
  BUILDINGS_FILE,
  ASSESSOR_FILE,
  ...Object.values(LAYERS).map((l) => join(DATA, "layers", l.file)),
].every((path) => existsSync(path));

const CITY = { provider: "City of Cambridge GIS", license: "PDDL 1.0" };

describe.skipIf(!PRESENT)(
  PRESENT
    ? "data products on the Cambridge, MA open data"
    : "data products on the Cambridge, MA open data — SKIPPED: ../shared/data/cambridge is missing",
  () => {
    let testDatabase: TestDatabase;
    const source = () => testDatabase.database;

    /** 120 GORE ST's parcel (its map-lot id read from the assessor file) and a point inside it. */
    let gore: ProductInput & { parcel: Parcel };

    beforeAll(async () => {
      testDatabase = await createTestDatabase();
      const database = testDatabase.database;
      await importFile(database, {
        kind: "parcels",
        file: PARCELS_FILE,
        idField: "ML",
        name: "Cambridge parcels FY2014",
        ...CITY,
        vintage: "FY2014",
      });
      await importFile(database, {
        kind: "buildings",
        file: BUILDINGS_FILE,
        name: "East Cambridge buildings",
        ...CITY,
      });
      for (const layer of Object.values(LAYERS)) {
        const { file, ...named } = layer;
        await importFile(database, { kind: "layer", file: join(DATA, "layers", file), ...named, ...CITY });
      }
      gore = await inputAt(await parcelOf(mapLotOf("120 GORE ST")));
    }, 300_000);
    afterAll(async () => {
      await testDatabase?.destroy();
    });

    /** The `ML` of the assessor row at an address: the first quoted field of its line. */
    function mapLotOf(address: string): string {
      const line = readFileSync(ASSESSOR_FILE, "utf8")
        .split(/\r?\n/)
        .find((row) => row.includes(`"${address}"`));
      const ml = line?.match(/^"([^"]*)"/)?.[1]?.trim();
      if (!ml) throw new Error(`${address} is not in the assessor file`);
      return ml;
    }

    async function parcelOf(sourceId: string): Promise<Parcel> {
      const [parcel] = await readParcels(source(), (query) => query.where("source_id", "=", sourceId));
      if (!parcel) throw new Error(`no parcel ${sourceId}`);
      return parcel;
    }

    async function inputAt(parcel: Parcel): Promise<ProductInput & { parcel: Parcel }> {
      return { point: representativePoint(parcel.boundary) as LonLat, parcel };
    }

    const layer = (result: ThirdPartyResult, name: string) => result.layers.find((l) => l.dataset === name);

    describe("parcel", () => {
      it("gives 120 GORE ST's imported boundary, id, area and perimeter, with the parcels' provenance", async () => {
        const result = await PRODUCTS.parcel(source(), gore);
        expect(result).toMatchObject({
          boundary: gore.parcel.boundary,
          boundary_source: "imported",
          source_id: "23-7",
        });
        expect(result.area_m2).toBeCloseTo(geodesicArea(gore.parcel.boundary), 2);
        expect(result.area_ft2).toBeCloseTo(result.area_m2 * 10.7639104, 0);
        // The assessor gives the lot as 2,800 ft²; the GIS outline agrees to within a tenth.
        expect(result.area_ft2).toBeGreaterThan(2800 * 0.9);
        expect(result.area_ft2).toBeLessThan(2800 * 1.1);
        expect(result.perimeter_m).toBeGreaterThan(4 * Math.sqrt(result.area_m2) * 0.99);
        expect(result.perimeter_m).toBeLessThan(200);
        expect(result.provenance).toEqual([
          {
            dataset: "Cambridge parcels FY2014",
            ...CITY,
            vintage: "FY2014",
            imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        ]);
        expect(Date.parse(result.computed_at)).toBeLessThanOrEqual(Date.now());
      });

      it("uses the user's boundary instead when the order drew one, keeping the parcel's id", async () => {
        const boundary = rectangle(bboxOf(gore.parcel.boundary));
        const result = await PRODUCTS.parcel(source(), { ...gore, boundary });
        expect(result).toMatchObject({ boundary, boundary_source: "user", source_id: "23-7" });
        expect(result.area_m2).toBeCloseTo(geodesicArea(boundary), 2);
        expect(result.area_m2).not.toBeCloseTo(geodesicArea(gore.parcel.boundary), 0);
        expect(result.provenance[0]).toEqual(USER_DRAWN);
      });

      it("fails with no_parcel_at_location where there is neither a parcel nor a drawn boundary", async () => {
        const nowhere = { point: [-71.09, 42.357] as LonLat, parcel: undefined };
        await expect(PRODUCTS.parcel(source(), nowhere)).rejects.toMatchObject({ reason: NO_PARCEL_AT_LOCATION });
        await expect(PRODUCTS.structures(source(), nowhere)).rejects.toBeInstanceOf(OrderFailure);
      });
    });

    describe("structures", () => {
      it("finds 120 GORE ST's house (BLDG, the primary one) and its outbuilding, and how much of the lot they cover", async () => {
        const result = await PRODUCTS.structures(source(), gore);
        expect(result.count).toBe(2);
        const [house, outbuilding] = result.structures;
        expect(house?.attributes.TYPE).toBe("BLDG");
        expect(outbuilding?.attributes.TYPE).toBe("OUTBLDG");
        expect(result.primary_building_id).toBe(house?.building_id);
        expect(house?.area_m2).toBeGreaterThan(outbuilding?.area_m2 ?? Number.POSITIVE_INFINITY);
        for (const structure of result.structures) {
          expect(structure.area_m2).toBeCloseTo(geodesicArea(structure.footprint), 1);
          expect(structure.area_ft2).toBeCloseTo(structure.area_m2 * 10.7639104, 0);
        }
        expect(result.total_area_m2).toBeCloseTo((house?.area_m2 ?? 0) + (outbuilding?.area_m2 ?? 0), 1);
        expect(result.lot_coverage).toBeGreaterThan(0);
        expect(result.lot_coverage).toBeLessThan(1);
        expect(result.lot_coverage).toBeCloseTo(result.total_area_m2 / geodesicArea(gore.parcel.boundary), 3);
        expect(result.provenance.map((p) => p.dataset)).toEqual([
          "East Cambridge buildings",
          "Cambridge parcels FY2014",
        ]);
      });

      it("on a drawn boundary equal to the parcel's, finds the same buildings; on a larger one, those and maybe more", async () => {
        const imported = await PRODUCTS.structures(source(), gore);
        const ids = imported.structures.map((s) => s.building_id);
        const same = await PRODUCTS.structures(source(), { ...gore, boundary: gore.parcel.boundary });
        expect(same.boundary_source).toBe("user");
        expect(same.structures.map((s) => s.building_id)).toEqual(ids);
        expect(same.provenance[0]).toEqual(USER_DRAWN);

        const larger = await PRODUCTS.structures(source(), {
          ...gore,
          boundary: rectangle(bboxOf(gore.parcel.boundary)),
        });
        expect(larger.structures.map((s) => s.building_id)).toEqual(expect.arrayContaining(ids));
        expect(larger.lot_coverage).toBeLessThan(1);
      });

      it("on a drawn boundary, takes a building only where it holds the largest share of it", async () => {
        const [house] = (await PRODUCTS.structures(source(), gore)).structures;
        if (!house) throw new Error("no house");
        // A strip over the house's western third: most of it, and its parcel, lie outside.
        const [w, s, e, n] = bboxOf(house.footprint);
        const strip = rectangle([w - 0.00005, s - 0.00005, w + (e - w) / 3, n + 0.00005]);
        const result = await PRODUCTS.structures(source(), { ...gore, boundary: strip });
        expect(result.structures.map((x) => x.building_id)).not.toContain(house.building_id);
        // And the house's own outline drawn a little larger takes it.
        const around = rectangle([w - 0.00001, s - 0.00001, e + 0.00001, n + 0.00001]);
        const taken = await PRODUCTS.structures(source(), { ...gore, boundary: around });
        expect(taken.structures.map((x) => x.building_id)).toContain(house.building_id);
      });
    });

    describe("exposure", () => {
      it("gives each structure its nearest neighbour and the count within 10, 30 and 100 m, as a brute-force check does", async () => {
        const structures = await PRODUCTS.structures(source(), gore);
        const result = await PRODUCTS.exposure(source(), gore);
        expect(result.structures.map((s) => s.building_id)).toEqual(structures.structures.map((s) => s.building_id));
        const everyBuilding = await readBuildings(source(), (query) => query);
        for (const [index, exposure] of result.structures.entries()) {
          const footprint = structures.structures[index]?.footprint as Area;
          const distances = everyBuilding
            .filter((b) => b.buildingId !== exposure.building_id)
            .map((b) => ({ id: b.buildingId, d: distanceBetweenAreas(footprint, b.footprint) }))
            .sort((a, b) => a.d - b.d || a.id - b.id);
          expect(exposure.nearest_structure?.distance_m).toBeCloseTo(distances[0]?.d ?? Number.NaN, 2);
          expect(exposure.within_10_m).toBe(distances.filter((x) => x.d <= 10).length);
          expect(exposure.within_30_m).toBe(distances.filter((x) => x.d <= 30).length);
          expect(exposure.within_100_m).toBe(distances.filter((x) => x.d <= 100).length);
          expect(exposure.within_10_m).toBeLessThanOrEqual(exposure.within_30_m);
          expect(exposure.within_30_m).toBeLessThanOrEqual(exposure.within_100_m);
          expect(exposure.within_10_m > 0).toBe((exposure.nearest_structure?.distance_m ?? Infinity) <= 10);
        }
        const outbuilding = result.structures[1];
        expect(outbuilding?.nearest_structure?.distance_m).toBeLessThanOrEqual(30);
        expect(result.nearest_structure_m).toBe(
          Math.min(...result.structures.map((s) => s.nearest_structure?.distance_m ?? Infinity)),
        );
        expect(result.provenance.map((p) => p.dataset)).toEqual(["East Cambridge buildings"]);
      });
    });

    describe("location", () => {
      it("places 120 GORE ST in Middlesex County, Massachusetts (25017, MA), within 20 km of the coast", async () => {
        const result = await PRODUCTS.location(source(), gore);
        expect(result.county).toEqual({ fips: "25017", name: "Middlesex County" });
        expect(result.state).toEqual({ fips: "25", name: "Massachusetts", code: "MA" });
        expect(result.coast_distance_m).toBeGreaterThan(0);
        expect(result.coast_distance_m).toBeLessThan(20_000);
        expect(result.provenance.map((p) => p.provider)).toEqual([
          expect.stringContaining("US Census Bureau"),
          expect.stringContaining("Natural Earth"),
        ]);
      });
    });

    describe("third_party", () => {
      it("gives 120 GORE ST its nearest fire station (named, < 2 km) and hydrant (< 300 m), each with its source", async () => {
        const result = await PRODUCTS.third_party(source(), gore);
        expect(result.matched_against).toBe("parcel");
        const station = layer(result, "Fire stations") as PointLayerResult;
        expect(station).toMatchObject({ geometry_kind: "point", ...CITY, vintage: null });
        expect(station.nearest?.attributes.SITE_NAME).toEqual(expect.stringMatching(/\S/));
        expect(station.nearest?.distance_m).toBeGreaterThan(0);
        expect(station.nearest?.distance_m).toBeLessThan(2000);
        const hydrant = layer(result, "Hydrants") as PointLayerResult;
        expect(hydrant.nearest?.distance_m).toBeLessThan(300);
        expect(hydrant.nearest?.location).toHaveLength(2);
        expect(result.provenance.map((p) => p.dataset).sort()).toEqual(
          Object.values(LAYERS)
            .map((l) => l.name)
            .sort(),
        );
      });

      it("finds 120 GORE ST outside the FEMA 100-year floodplain", async () => {
        const flood = layer(await PRODUCTS.third_party(source(), gore), LAYERS.flood.name) as PolygonLayerResult;
        expect(flood).toMatchObject({
          geometry_kind: "polygon",
          intersects: false,
          features: [],
          vintage: LAYERS.flood.vintage,
        });
      });

      it("finds a parcel along the Charles River in the 100-year floodplain: zone AE, in the SFHA", async () => {
        // The flood polygons south of 42.38° follow the Charles (those of Alewife Brook lie further north). A parcel
        // holding one of their vertices meets them; of those, take the one the floodplain covers most.
        const zones = (
          await source()
            .db.selectFrom("layer_features")
            .innerJoin("datasets", "datasets.dataset_id", "layer_features.dataset_id")
            .select("layer_features.geometry")
            .where("datasets.name", "=", LAYERS.flood.name)
            .where("layer_features.max_lat", "<", 42.38)
            .execute()
        ).map((row) => decodeGeometry(row.geometry) as Area);
        expect(zones.length).toBeGreaterThan(0);
        const candidates = new Map<number, Parcel>();
        for (const zone of zones) {
          const vertices = (zone.type === "Polygon" ? [zone.coordinates] : zone.coordinates).flat(2);
          for (let i = 0; i < vertices.length; i += 10) {
            const parcel = await parcelAt(source(), vertices[i] as LonLat);
            if (parcel) candidates.set(parcel.parcelId, parcel);
          }
        }
        const covered = (parcel: Parcel) =>
          zones.reduce((sum, zone) => sum + intersectionArea(parcel.boundary, zone), 0) / parcel.areaM2;
        const [riverside] = [...candidates.values()]
          .map((parcel) => ({ parcel, share: covered(parcel) }))
          .sort((a, b) => b.share - a.share || a.parcel.parcelId - b.parcel.parcelId)
          .map(({ parcel }) => parcel);
        if (!riverside) throw new Error("no parcel along the Charles lies in the 100-year floodplain");
        const result = await PRODUCTS.third_party(source(), await inputAt(riverside));
        const flood = layer(result, LAYERS.flood.name) as PolygonLayerResult;
        expect(flood.intersects).toBe(true);
        expect(flood.features[0]?.attributes).toMatchObject({ fld_zone: "AE", sfha_tf: "T" });
        expect(flood.features.reduce((sum, f) => sum + (f.overlap_m2 ?? 0), 0)).toBeCloseTo(
          covered(riverside) * riverside.areaM2,
          0,
        );
        expect(covered(riverside)).toBeGreaterThan(0.1);
      });

      it("matches a drawn boundary instead of the parcel, and the bare point where there is neither", async () => {
        const drawn = await PRODUCTS.third_party(source(), {
          ...gore,
          boundary: rectangle(bboxOf(gore.parcel.boundary)),
        });
        expect(drawn.matched_against).toBe("user_boundary");
        const bare = await PRODUCTS.third_party(source(), { point: gore.point, parcel: undefined });
        expect(bare.matched_against).toBe("point");
        expect((layer(bare, LAYERS.flood.name) as PolygonLayerResult).intersects).toBe(false);
      });
    });

    describe("computeProducts", () => {
      it("runs the products named, each once, and answers them by name", async () => {
        const results = await computeProducts(source(), ["parcel", "location", "parcel"], gore);
        expect(Object.keys(results).sort()).toEqual(["location", "parcel"]);
        expect(results.parcel?.source_id).toBe("23-7");
        expect(results.location?.county?.fips).toBe("25017");
        const all = await computeProducts(source(), Object.keys(PRODUCTS), gore);
        expect(Object.keys(all).sort()).toEqual(["exposure", "location", "parcel", "structures", "third_party"]);
        for (const result of Object.values(all)) {
          expect(result.provenance.length).toBeGreaterThan(0);
          expect(new Date(result.computed_at).toISOString()).toBe(result.computed_at);
        }
      });

      it("refuses an unknown product before running any, and passes on an order that cannot be served", async () => {
        await expect(computeProducts(source(), ["parcel", "roof_age"], gore)).rejects.toSatisfy(
          (error) => error instanceof DomainError && error.code === "unknown_product",
        );
        const nowhere = { point: [-71.09, 42.357] as LonLat, parcel: undefined };
        await expect(computeProducts(source(), ["location", "structures"], nowhere)).rejects.toMatchObject({
          code: NO_PARCEL_AT_LOCATION,
        });
        const located = await computeProducts(source(), ["location", "third_party"], nowhere);
        expect(located.third_party?.matched_against).toBe("point");
      });
    });
  },
);

/** A rectangle over a bounding box, counter-clockwise. */
function rectangle([w, s, e, n]: [number, number, number, number]): Area {
  return {
    type: "Polygon",
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  };
}
