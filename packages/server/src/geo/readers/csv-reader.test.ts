import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect } from "./test-collect.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "lotline-csv-test-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function fixture(name: string, content: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, content);
  return path;
}

const COORDINATES = { lonColumn: "lon", latColumn: "lat" };

describe("readSource on CSV", () => {
  it("makes a point of each row's coordinates, and an error record of a bad one, numbered by line", async () => {
    const path = await fixture(
      "points.csv",
      [
        "id,name,lon,lat",
        "1,Fire Headquarters,-71.1148,42.3753",
        "2,bad longitude,abc,42.37",
        "3,off the map,-271.1,42.37",
        "4,no latitude,-71.1,",
        "5,  padded  , -71.1 , 42.37 ",
        '6,12" main,-71.1,42.37',
        "",
      ].join("\n"),
    );
    expect(await collect(path, COORDINATES)).toEqual([
      {
        number: 2,
        feature: {
          type: "Feature",
          properties: { id: "1", name: "Fire Headquarters", lon: "-71.1148", lat: "42.3753" },
          geometry: { type: "Point", coordinates: [-71.1148, 42.3753] },
        },
      },
      { number: 3, error: 'column "lon" holds "abc", not a number' },
      { number: 4, error: expect.stringContaining("not a WGS 84 longitude/latitude") },
      { number: 5, error: 'column "lat" is empty' },
      {
        number: 6,
        feature: {
          type: "Feature",
          properties: { id: "5", name: "  padded  ", lon: " -71.1 ", lat: " 42.37 " },
          geometry: { type: "Point", coordinates: [-71.1, 42.37] },
        },
      },
      { number: 7, feature: expect.objectContaining({ properties: expect.objectContaining({ name: '12" main' }) }) },
    ]);
  });

  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
  ])(
    "numbers rows by the line they start on, past blank lines, multi-line cells and rejected rows (%s)",
    async (_, newline) => {
      const path = await fixture(
        "lines.csv",
        [
          '\uFEFF"ML","Location"',
          '"7-18","219 MONSIGNOR OBRIEN HWY"',
          "",
          '"7-19","first line',
          "second line",
          'third line"',
          '"7-20"',
          '"7-21","8 X ST"',
        ].join(newline),
      );
      const row = (ML: string, Location: string) => ({ type: "Feature", properties: { ML, Location }, geometry: null });
      expect(await collect(path)).toEqual([
        { number: 2, feature: row("7-18", "219 MONSIGNOR OBRIEN HWY") },
        { number: 4, feature: row("7-19", ["first line", "second line", "third line"].join(newline)) },
        { number: 7, error: "1 cell where the header names 2 columns" },
        { number: 8, feature: row("7-21", "8 X ST") },
      ]);
    },
  );

  it("keeps a column named __proto__ as a property, and refuses a header it cannot read", async () => {
    const proto = await fixture("proto.csv", "__proto__,name\npolluted,x\n");
    const [record] = await collect(proto);
    const properties = (record as { feature: { properties: Record<string, string> } }).feature.properties;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.entries(properties)).toEqual([
      ["__proto__", "polluted"],
      ["name", "x"],
    ]);
    const broken = await fixture("broken-header.csv", '"id"x,name\n1,a\n');
    await expect(collect(broken)).rejects.toMatchObject({
      code: "unreadable_source",
      message: expect.stringContaining("the header on line 1 cannot be read"),
    });
  });

  it("reprojects the coordinates from options.crs", async () => {
    const path = await fixture("stateplane.csv", "name,x,y\ncorner,765377.78,2955291.45\n");
    const [record] = await collect(path, { lonColumn: "x", latColumn: "y", crs: "EPSG:2249" });
    const { coordinates } = (record as { feature: { geometry: { coordinates: number[] } } }).feature.geometry;
    expect(coordinates[0]).toBeCloseTo(-71.0959, 3);
    expect(coordinates[1]).toBeCloseTo(42.3568, 3);
  });

  it("throws a SourceError for a coordinate column the header lacks, or half a pair of columns", async () => {
    const path = await fixture("nocolumn.csv", "id,longitude,latitude\n1,-71.1,42.37\n");
    await expect(collect(path, COORDINATES)).rejects.toMatchObject({
      code: "unknown_column",
      message: expect.stringContaining('no column "lon"; its columns are "id", "longitude", "latitude"'),
    });
    await expect(collect(path, { lonColumn: "longitude" })).rejects.toMatchObject({ code: "invalid_options" });
  });
});
