import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SourceRecord } from "../types.js";
import { readSource } from "./index.js";
import { collect } from "./test-collect.js";
import { zipArchive } from "./test-zip.js";

/** The `.prj` of NAD83 / Massachusetts Mainland in US feet, as ArcGIS writes it (the Cambridge buildings' own). */
const MASSACHUSETTS_PRJ =
  'PROJCS["NAD_1983_StatePlane_Massachusetts_Mainland_FIPS_2001_Feet",GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]],PROJECTION["Lambert_Conformal_Conic"],PARAMETER["False_Easting",656166.6666666665],PARAMETER["False_Northing",2460625],PARAMETER["Central_Meridian",-71.5],PARAMETER["Standard_Parallel_1",41.71666666666667],PARAMETER["Standard_Parallel_2",42.68333333333333],PARAMETER["Latitude_Of_Origin",41],UNIT["Foot_US",0.30480060960121924]]';

/** Two corners of the Cambridge buildings' bounding box in state-plane feet, and where they are in WGS 84. */
const SOUTH_WEST = { x: 765377.78, y: 2955291.45, lon: -71.0959, lat: 42.3568 };
const NORTH_EAST = { x: 772316.4, y: 2961096.42, lon: -71.0702, lat: 42.3727 };

/** A point shapefile's `.shp`: one record per point, `null` for a null shape. */
function shp(points: ReadonlyArray<readonly [number, number] | null>): Buffer {
  const records = points.map((point, i) => {
    const record = Buffer.alloc(point ? 28 : 12);
    record.writeInt32BE(i + 1, 0);
    record.writeInt32BE((record.length - 8) / 2, 4);
    record.writeInt32LE(point ? 1 : 0, 8);
    if (point) {
      record.writeDoubleLE(point[0], 12);
      record.writeDoubleLE(point[1], 20);
    }
    return record;
  });
  const present = points.filter((point) => point !== null);
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE((100 + records.reduce((sum, record) => sum + record.length, 0)) / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(1, 32);
  [
    Math.min(...present.map((p) => p[0])),
    Math.min(...present.map((p) => p[1])),
    Math.max(...present.map((p) => p[0])),
    Math.max(...present.map((p) => p[1])),
  ].forEach((value, i) => {
    header.writeDoubleLE(value, 36 + 8 * i);
  });
  return Buffer.concat([header, ...records]);
}

/** A `.dbf` with one character field `NAME` of 20 bytes, the names already encoded. */
function dbf(names: Buffer[]): Buffer {
  const header = Buffer.alloc(32 + 32 + 1);
  header.writeUInt8(3, 0);
  header.writeUInt32LE(names.length, 4);
  header.writeUInt16LE(header.length, 8);
  header.writeUInt16LE(1 + 20, 10);
  header.write("NAME", 32, "latin1");
  header.write("C", 32 + 11, "latin1");
  header.writeUInt8(20, 32 + 16);
  header.writeUInt8(0x0d, 64);
  const rows = names.map((name) => {
    const row = Buffer.alloc(21, 0x20);
    name.copy(row, 1);
    return row;
  });
  return Buffer.concat([header, ...rows, Buffer.from([0x1a])]);
}

function coordinatesOf(record: SourceRecord | undefined): number[] {
  if (!record || !("feature" in record) || record.feature.geometry?.type !== "Point") throw new Error("not a point");
  return record.feature.geometry.coordinates;
}

let folder: string;
let stateplane: { shp: Buffer; dbf: Buffer };

async function write(name: string, files: Record<string, Buffer | string>): Promise<string> {
  const dir = join(folder, name);
  await mkdir(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) await writeFile(join(dir, file), content);
  return dir;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "lotline-shapefile-test-"));
  stateplane = {
    shp: shp([[SOUTH_WEST.x, SOUTH_WEST.y], null, [NORTH_EAST.x, NORTH_EAST.y]]),
    dbf: dbf([Buffer.from("south-west"), Buffer.from("nothing"), Buffer.from("north-east")]),
  };
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("readSource on a shapefile", () => {
  it("asks for --crs when there is no .prj and the coordinates are not longitude/latitude", async () => {
    const dir = await write("noprj", { "lots.shp": stateplane.shp, "lots.dbf": stateplane.dbf });
    await expect(collect(join(dir, "lots.shp"))).rejects.toMatchObject({
      code: "crs_required",
      message: expect.stringMatching(/has no \.prj and its coordinates \(x 765378…772316, y 2955291…2961096\).*--crs/),
    });
  });

  it("reprojects from options.crs, numbering records by position, with their .dbf attributes", async () => {
    const dir = await write("noprj", { "lots.shp": stateplane.shp, "lots.dbf": stateplane.dbf });
    const records = await collect(join(dir, "lots.shp"), { crs: "EPSG:2249" });
    expect(records.map((record) => record.number)).toEqual([1, 2, 3]);
    expect(records[0]).toMatchObject({ feature: { properties: { NAME: "south-west" } } });
    const [lon = 0, lat = 0] = coordinatesOf(records[0]);
    expect(lon).toBeCloseTo(SOUTH_WEST.lon, 3);
    expect(lat).toBeCloseTo(SOUTH_WEST.lat, 3);
    expect(records[1]).toEqual({
      number: 2,
      feature: { type: "Feature", properties: { NAME: "nothing" }, geometry: null },
    });
    expect(coordinatesOf(records[2])[0]).toBeCloseTo(NORTH_EAST.lon, 3);
  });

  it("honours a .prj, and finds companions whatever the case of their extensions", async () => {
    const dir = await write("prj", {
      "LOTS.SHP": stateplane.shp,
      "LOTS.DBF": stateplane.dbf,
      "LOTS.PRJ": MASSACHUSETTS_PRJ,
    });
    const fromPrj = await collect(join(dir, "LOTS.SHP"));
    const fromOption = await collect(join(dir, "LOTS.SHP"), { crs: "EPSG:2249" });
    expect(fromPrj[0]).toMatchObject({ feature: { properties: { NAME: "south-west" } } });
    const [a = 0, b = 0] = coordinatesOf(fromPrj[0]);
    const [c = 0, d = 0] = coordinatesOf(fromOption[0]);
    expect(Math.abs(a - c) + Math.abs(b - d)).toBeLessThan(1e-7);
  });

  it("reads longitude/latitude without a .prj, and decodes attributes as the .cpg says (else Windows-1252)", async () => {
    const points = shp([[-71.1, 42.37]]);
    const utf8 = await write("utf8", {
      "p.shp": points,
      "p.dbf": dbf([Buffer.from("Café Ñ", "utf8")]),
      "p.cpg": "UTF-8\n",
    });
    expect(await collect(join(utf8, "p.shp"))).toEqual([
      {
        number: 1,
        feature: {
          type: "Feature",
          properties: { NAME: "Café Ñ" },
          geometry: { type: "Point", coordinates: [-71.1, 42.37] },
        },
      },
    ]);
    const latin = await write("latin", { "p.shp": points, "p.dbf": dbf([Buffer.from("Café Ñ", "latin1")]) });
    expect(await collect(join(latin, "p.shp"))).toMatchObject([{ feature: { properties: { NAME: "Café Ñ" } } }]);
  });

  it("throws a SourceError for a file that is not a shapefile", async () => {
    const dir = await write("junk", { "junk.shp": Buffer.from("not a shapefile at all, not even 100 bytes") });
    await expect(collect(join(dir, "junk.shp"))).rejects.toMatchObject({ code: "unreadable_source" });
  });
});

describe("readSource on a zipped shapefile", () => {
  let temporary: string;
  const savedTmpdir = process.env.TMPDIR;

  // The reader's temporary folders go to a folder of this test's own, to see that they are removed.
  beforeEach(async () => {
    temporary = await mkdtemp(join(folder, "tmp-"));
    process.env.TMPDIR = temporary;
  });
  afterEach(async () => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    expect(await readdir(temporary)).toEqual([]);
  });

  async function writeZip(name: string, files: Record<string, Buffer | string>): Promise<string> {
    const path = join(folder, name);
    await writeFile(
      path,
      zipArchive(Object.fromEntries(Object.entries(files).map(([key, value]) => [key, Buffer.from(value)]))),
    );
    return path;
  }

  it("extracts the shapefile from a folder inside the zip, skipping macOS clutter, and reads it", async () => {
    const path = await writeZip("lots.zip", {
      "export/": "",
      "export/Lots.shp": stateplane.shp,
      "export/Lots.dbf": stateplane.dbf,
      "export/Lots.prj": MASSACHUSETTS_PRJ,
      "__MACOSX/export/._Lots.shp": "resource fork",
    });
    const progress: number[] = [];
    const records = await collect(path, { onProgress: (read) => progress.push(read) });
    expect(records).toHaveLength(3);
    expect(records[0]).toMatchObject({ number: 1, feature: { properties: { NAME: "south-west" } } });
    expect(coordinatesOf(records[0])[1]).toBeCloseTo(SOUTH_WEST.lat, 3);
    expect(progress.at(-1)).toBe(stateplane.shp.length);
  });

  it("chooses among several shapefiles by options.object, and asks for it otherwise", async () => {
    const path = await writeZip("two.zip", {
      "a.shp": shp([[-71.1, 42.37]]),
      "a.dbf": dbf([Buffer.from("from a")]),
      "b.shp": shp([[-71.2, 42.38]]),
      "b.dbf": dbf([Buffer.from("from b")]),
    });
    await expect(collect(path)).rejects.toMatchObject({
      code: "unknown_object",
      message: expect.stringContaining('several shapefiles ("a", "b")'),
    });
    expect(await collect(path, { object: "b" })).toMatchObject([{ feature: { properties: { NAME: "from b" } } }]);
    await expect(collect(path, { object: "c" })).rejects.toMatchObject({ code: "unknown_object" });
  });

  it("throws a SourceError for a corrupt zip or one without a shapefile, and still removes its folder", async () => {
    const corrupt = join(folder, "corrupt.zip");
    await writeFile(corrupt, Buffer.from("PK\x03\x04 this is not really a zip"));
    await expect(collect(corrupt)).rejects.toMatchObject({
      code: "unreadable_source",
      message: expect.stringContaining("zip"),
    });
    const empty = await writeZip("empty.zip", { "readme.txt": "no shapefile here" });
    await expect(collect(empty)).rejects.toMatchObject({
      code: "unreadable_source",
      message: expect.stringContaining("no .shp"),
    });
    const noPrj = await writeZip("noprj.zip", { "lots.shp": stateplane.shp, "lots.dbf": stateplane.dbf });
    await expect(collect(noPrj)).rejects.toMatchObject({ code: "crs_required" });
  });

  it("removes its folder when the caller stops early", async () => {
    const path = await writeZip("early.zip", { "lots.shp": stateplane.shp, "lots.dbf": stateplane.dbf });
    for await (const record of readSource(path, { crs: "EPSG:2249" })) {
      expect(record.number).toBe(1);
      expect(await readdir(temporary)).toHaveLength(1);
      break;
    }
  });
});

const BUILDINGS = new URL("../../../../../../shared/data/cambridge/buildings-east-cambridge/", import.meta.url);
const haveBuildings = existsSync(BUILDINGS);

describe.skipIf(!haveBuildings)("readSource on the Cambridge buildings (../shared/data; skipped where absent)", () => {
  /** Checks the 2,166 buildings: lon/lat bounds as measured (±0.001) and their TYPE attribute. */
  function expectBuildings(records: SourceRecord[]) {
    expect(records).toHaveLength(2166);
    expect(records.map((record) => record.number)).toEqual(records.map((_, i) => i + 1));
    const bounds = [180, 90, -180, -90];
    const types = new Set<unknown>();
    for (const record of records) {
      if (!("feature" in record)) throw new Error(`record ${record.number}: ${record.error}`);
      types.add(record.feature.properties.TYPE);
      const geometry = record.feature.geometry;
      if (geometry?.type !== "Polygon" && geometry?.type !== "MultiPolygon") throw new Error(`record ${record.number}`);
      const positions = geometry.type === "Polygon" ? geometry.coordinates.flat() : geometry.coordinates.flat(2);
      for (const [lon = 0, lat = 0] of positions) {
        bounds[0] = Math.min(bounds[0] ?? 0, lon);
        bounds[1] = Math.min(bounds[1] ?? 0, lat);
        bounds[2] = Math.max(bounds[2] ?? 0, lon);
        bounds[3] = Math.max(bounds[3] ?? 0, lat);
      }
    }
    const [west = 0, south = 0, east = 0, north = 0] = bounds;
    expect(Math.abs(west - -71.0959)).toBeLessThan(0.001);
    expect(Math.abs(south - 42.3568)).toBeLessThan(0.001);
    expect(Math.abs(east - -71.0702)).toBeLessThan(0.001);
    expect(Math.abs(north - 42.3727)).toBeLessThan(0.001);
    expect(types).toContain("BLDG");
    expect(types).toContain("OUTBLDG");
  }

  it("reads the 2,166 footprints reprojected from the state plane by their .prj", async () => {
    expectBuildings(await collect(new URL("Buildings.shp", BUILDINGS).pathname));
  });

  it("reads the same from a zip of the shapefile", async () => {
    const files: Record<string, Buffer> = {};
    for (const extension of ["shp", "shx", "dbf", "prj"]) {
      files[`volpe/Buildings.${extension}`] = await readFile(new URL(`Buildings.${extension}`, BUILDINGS));
    }
    const path = join(folder, "Buildings.zip");
    await writeFile(path, zipArchive(files));
    expectBuildings(await collect(path));
  });
});
