import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeWkb } from "../store/wkb.js";
import type { Geometry, SourceRecord } from "../types.js";
import { readSource } from "./index.js";
import { collect } from "./test-collect.js";
import { testFolder } from "./test-folder.js";
import { geoPackageGeometry, type TestTable, writeGeoPackage } from "./test-geopackage.js";
import { zipArchive } from "./test-zip.js";

const folder = testFolder("geopackage");

/** One corner of Cambridge, as GDAL gives it in each coordinate system. */
const CORNER = {
  feet: [765377.78, 2955291.45], // EPSG:2249, NAD83 / Massachusetts Mainland (ftUS)
  metres: [233287.613817628, 900774.635509271], // EPSG:26986, the same in metres
  lonLat: [-71.0959429278316, 42.3567609553986],
};

/** EPSG:26986 as GDAL writes it into a GeoPackage (WKT 1). */
const MASSACHUSETTS_METRES_WKT =
  'PROJCS["NAD83 / Massachusetts Mainland",GEOGCS["NAD83",DATUM["North_American_Datum_1983",' +
  'SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],' +
  'PROJECTION["Lambert_Conformal_Conic_2SP"],PARAMETER["latitude_of_origin",41],PARAMETER["central_meridian",-71.5],' +
  'PARAMETER["standard_parallel_1",42.6833333333333],PARAMETER["standard_parallel_2",41.7166666666667],' +
  'PARAMETER["false_easting",200000],PARAMETER["false_northing",750000],UNIT["metre",1]]';

const point = (x: number, y: number): Geometry => ({ type: "Point", coordinates: [x, y] });
const square: Geometry = {
  type: "Polygon",
  coordinates: [
    [
      [-71.1, 42.37],
      [-71.09, 42.37],
      [-71.09, 42.38],
      [-71.1, 42.37],
    ],
  ],
};

function parcels(rows: TestTable["rows"], srsId = 4326): TestTable {
  return {
    name: "parcels",
    dataType: "features",
    srsId,
    columns: { ML: "TEXT", area: "REAL", vacant: "BOOLEAN", photo: "BLOB" },
    rows,
  };
}

async function geoPackageAt(name: string, tables: TestTable[], srs: Parameters<typeof writeGeoPackage>[2] = []) {
  const path = `${folder.path()}/${name}`;
  writeGeoPackage(path, tables, srs);
  return path;
}

function coordinatesOf(record: SourceRecord | undefined): unknown {
  if (!record || !("feature" in record)) throw new Error(`not a feature: ${JSON.stringify(record)}`);
  return (record.feature.geometry as { coordinates: unknown } | null)?.coordinates;
}

describe("reading a GeoPackage", () => {
  it("reads its feature table row by row: the feature id as number, the other columns as properties", async () => {
    const path = await geoPackageAt("plain.gpkg", [
      parcels([
        {
          fid: 7,
          geom: geoPackageGeometry(encodeWkb(square)),
          ML: "1A-1",
          area: 12.5,
          vacant: 1,
          photo: Buffer.from("x"),
        },
        { fid: 9, geom: geoPackageGeometry(encodeWkb(point(-71.1, 42.37)), { envelope: [1, 2, 3, 4] }), ML: "1A-2" },
      ]),
    ]);
    expect(await collect(path)).toEqual([
      {
        number: 7,
        feature: { type: "Feature", properties: { ML: "1A-1", area: 12.5, vacant: true }, geometry: square },
      },
      {
        number: 9,
        feature: {
          type: "Feature",
          properties: { ML: "1A-2", area: null, vacant: null },
          geometry: point(-71.1, 42.37),
        },
      },
    ]);
  });

  it("reads every header the standard allows: big-endian, an xyzm envelope, the empty flag", async () => {
    const wkb = encodeWkb(point(-71.1, 42.37));
    const path = await geoPackageAt("headers.gpkg", [
      parcels([
        { geom: geoPackageGeometry(wkb, { bigEndian: true, envelope: [1, 2, 3, 4] }), ML: "a" },
        { geom: geoPackageGeometry(wkb, { envelope: [1, 2, 3, 4, 5, 6, 7, 8] }), ML: "b" },
        { geom: geoPackageGeometry(encodeWkb(point(Number.NaN, Number.NaN)), { empty: true }), ML: "c" },
        { geom: null, ML: "d" },
      ]),
    ]);
    const records = await collect(path);
    expect(records.map(coordinatesOf)).toEqual([[-71.1, 42.37], [-71.1, 42.37], undefined, undefined]);
    expect(records.map((record) => ("feature" in record ? record.feature.geometry : record))).toEqual([
      point(-71.1, 42.37),
      point(-71.1, 42.37),
      null,
      null,
    ]);
  });

  it("makes a geometry it cannot read its record's error, and reads on", async () => {
    const path = await geoPackageAt("bad-geometry.gpkg", [
      parcels([
        { geom: encodeWkb(point(-71.1, 42.37)), ML: "plain WKB" },
        { geom: geoPackageGeometry(Buffer.from("0109000000", "hex")), ML: "unknown type" },
        { geom: "POINT (1 2)", ML: "text" },
        { geom: geoPackageGeometry(encodeWkb(point(200, 42))), ML: "off the globe" },
        { geom: geoPackageGeometry(encodeWkb(point(-71.1, 42.37))), ML: "good" },
      ]),
    ]);
    const records = await collect(path);
    expect(records).toEqual([
      { number: 1, error: expect.stringMatching(/not GeoPackage binary/) },
      { number: 2, error: expect.stringMatching(/type 9/) },
      { number: 3, error: expect.stringMatching(/not GeoPackage binary/) },
      { number: 4, error: expect.stringMatching(/not a WGS 84 longitude\/latitude/) },
      expect.objectContaining({ number: 5 }),
    ]);
  });

  it("reprojects from the geometry column's coordinate system: by EPSG code, else by the WKT it holds", async () => {
    const at = (x: number, y: number) => ({ geom: geoPackageGeometry(encodeWkb(point(x, y))), ML: "corner" });
    const byCode = await geoPackageAt(
      "feet.gpkg",
      [parcels([at(CORNER.feet[0] as number, CORNER.feet[1] as number)], 2249)],
      [{ srsId: 2249, organization: "EPSG", code: 2249, definition: "PROJCS[…]" }],
    );
    // A code this service has no definition of: the GeoPackage's WKT is read instead.
    const byWkt = await geoPackageAt(
      "metres.gpkg",
      [parcels([at(CORNER.metres[0] as number, CORNER.metres[1] as number)], 100_000)],
      [{ srsId: 100_000, organization: "EPSG", code: 999_999, definition: MASSACHUSETTS_METRES_WKT }],
    );
    for (const path of [byCode, byWkt]) {
      const [lon, lat] = coordinatesOf((await collect(path))[0]) as number[];
      expect(lon).toBeCloseTo(CORNER.lonLat[0] as number, 6);
      expect(lat).toBeCloseTo(CORNER.lonLat[1] as number, 6);
    }
  });

  it("asks for --crs when the coordinates are in an undefined Cartesian system, and takes it", async () => {
    const path = await geoPackageAt("cartesian.gpkg", [
      parcels([{ geom: geoPackageGeometry(encodeWkb(point(CORNER.feet[0] as number, CORNER.feet[1] as number))) }], -1),
    ]);
    await expect(collect(path)).rejects.toMatchObject({ code: "crs_required", message: /--crs/ });
    const [lon] = coordinatesOf((await collect(path, { crs: "EPSG:2249" }))[0]) as number[];
    expect(lon).toBeCloseTo(CORNER.lonLat[0] as number, 6);
  });

  it("reads the table --object names when it holds several; an attributes table reads without geometry", async () => {
    const path = await geoPackageAt("several.gpkg", [
      parcels([{ geom: geoPackageGeometry(encodeWkb(square)), ML: "1A-1" }]),
      { ...parcels([{ geom: geoPackageGeometry(encodeWkb(square)), ML: "2B-1" }]), name: "Parcels_2015" },
      {
        name: "addresses",
        dataType: "attributes",
        columns: { Location: "TEXT", ML: "TEXT" },
        rows: [{ Location: "1 MAIN ST", ML: "1A-1" }],
      },
    ]);
    await expect(collect(path)).rejects.toMatchObject({
      code: "unknown_object",
      message: expect.stringMatching(/several tables \("parcels", "Parcels_2015", "addresses"\).*--object/),
    });
    await expect(collect(path, { object: "roads" })).rejects.toMatchObject({ code: "unknown_object" });
    const named = await collect(path, { object: "parcels_2015" });
    expect(named.map((record) => ("feature" in record ? record.feature.properties.ML : record))).toEqual(["2B-1"]);
    expect(await collect(path, { object: "addresses" })).toEqual([
      { number: 1, feature: { type: "Feature", properties: { Location: "1 MAIN ST", ML: "1A-1" }, geometry: null } },
    ]);
  });

  it("refuses a file that is not a GeoPackage, saying so", async () => {
    const text = await folder.written("text.gpkg", "fid,geom\n1,POINT(1 2)\n");
    const bare = `${folder.path()}/bare.gpkg`;
    writeGeoPackage(bare, []);
    const sqlite = `${folder.path()}/other.gpkg`;
    const database = new (await import("better-sqlite3")).default(sqlite);
    database.exec("create table t (x)");
    database.close();
    await expect(collect(text)).rejects.toMatchObject({ code: "unreadable_source", message: /text\.gpkg/ });
    await expect(collect(bare)).rejects.toMatchObject({ code: "unreadable_source", message: /holds no feature table/ });
    await expect(collect(sqlite)).rejects.toMatchObject({ code: "unreadable_source", message: /not a GeoPackage/ });
  });

  it("reads a gzipped or zipped GeoPackage as the plain one, and leaves no unpacked copy behind", async () => {
    const plain = await geoPackageAt("packed.gpkg", [
      parcels(Array.from({ length: 30 }, (_, n) => ({ geom: geoPackageGeometry(encodeWkb(square)), ML: `P-${n}` }))),
    ]);
    const bytes = await readFile(plain);
    const gzipped = await folder.written("packed.gpkg.gz", gzipSync(bytes));
    const zipped = await folder.written("packed.gpkg.zip", zipArchive({ "parcels/packed.gpkg": bytes }));
    const before = (await readdir(tmpdir())).filter((name) => name.startsWith("lotline-geopackage-"));
    const expected = await collect(plain);
    expect(expected).toHaveLength(30);
    expect(await collect(gzipped)).toEqual(expected);
    expect(await collect(zipped)).toEqual(expected);
    for await (const record of readSource(zipped)) {
      expect(record.number).toBe(1);
      break;
    }
    const after = (await readdir(tmpdir())).filter((name) => name.startsWith("lotline-geopackage-"));
    expect(after).toEqual(before);
  });

  it("reports progress up to the whole file", async () => {
    const path = await geoPackageAt("progress.gpkg", [
      parcels(Array.from({ length: 3000 }, (_, n) => ({ geom: geoPackageGeometry(encodeWkb(square)), ML: `P-${n}` }))),
    ]);
    const reports: Array<[number, number]> = [];
    const records = await collect(path, { onProgress: (read, total) => reports.push([read, total]) });
    expect(records).toHaveLength(3000);
    const size = (await readFile(path)).length;
    expect(reports.length).toBeGreaterThanOrEqual(3);
    expect(reports.at(-1)).toEqual([size, size]);
    expect(reports.map(([read]) => read)).toEqual([...reports.map(([read]) => read)].sort((a, b) => a - b));
  });
});
