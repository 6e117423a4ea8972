import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { collect } from "./test-collect.js";
import { testFolder } from "./test-folder.js";

const footprint = (n: number) => ({
  type: "Feature",
  properties: { release: 2, capture_dates_range: "" },
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [-71.1 + n / 1000, 42.37],
        [-71.0995 + n / 1000, 42.37],
        [-71.0995 + n / 1000, 42.3705],
        [-71.1 + n / 1000, 42.37],
      ],
    ],
  },
});
const FEATURES = [1, 2, 3, 4, 5].map(footprint);
const line = (value: unknown) => JSON.stringify(value);

/** As statewide footprints are published: the collection opened on the first line, then a feature a line. */
const byLine = (features: unknown[], opening = '{"type":"FeatureCollection","features":[', closing = "]}") =>
  `${opening}\n${features.map(line).join(",\n")}\n${closing}\n`;

const { written } = testFolder("feature-lines-test");

/** What the token reader makes of the same collection: laid out over many lines, it never reads by line. */
const byTokens = async (collection: object, options = {}) =>
  collect(await written(`tokens-${Math.random()}.geojson`, JSON.stringify(collection, null, 2)), options);

describe("a FeatureCollection of one feature a line", () => {
  it("is read a line at a time into the records its tokens give, gzipped too", async () => {
    const expected = await byTokens({ type: "FeatureCollection", features: FEATURES });
    expect(expected).toHaveLength(5);
    expect(await collect(await written("state.geojson", byLine(FEATURES)))).toEqual(expected);
    expect(await collect(await written("state.geojson.gz", gzipSync(byLine(FEATURES))))).toEqual(expected);
  });

  it("closed on its last feature's line, or with members after its features, gives the same", async () => {
    const expected = await byTokens({ type: "FeatureCollection", features: FEATURES });
    const closedOnLastLine = `{"type":"FeatureCollection","features":[\n${FEATURES.map(line).join(",\n")}]}\n`;
    expect(await collect(await written("closed.geojson", closedOnLastLine))).toEqual(expected);
    const trailing = byLine(FEATURES, undefined, '],\n"name": "Buildings"\n}');
    expect(await collect(await written("trailing.geojson", trailing))).toEqual(expected);
  });

  it("follows a coordinate system named on its first line, as the token reader does", async () => {
    const crs = { type: "name", properties: { name: "EPSG:2249" } };
    const feet = [1, 2].map((n) => ({
      type: "Feature",
      properties: { n },
      geometry: { type: "Point", coordinates: [765377.78 + n, 2955291.45] },
    }));
    const opening = `{"type":"FeatureCollection","crs":${line(crs)},"features":[`;
    const records = await collect(await written("feet.geojson", byLine(feet, opening)));
    expect(records).toEqual(await byTokens({ type: "FeatureCollection", crs, features: feet }));
    expect(records[0]).toMatchObject({
      feature: { geometry: { coordinates: [expect.closeTo(-71.0959, 3), expect.closeTo(42.3568, 3)] } },
    });
  });

  it("whose layout changes part way is read past the features already read by its tokens, every one once", async () => {
    const mixed = `{"type":"FeatureCollection","features":[\n${FEATURES.slice(0, 2).map(line).join(",\n")},\n${FEATURES.slice(
      2,
    )
      .map((feature) => JSON.stringify(feature, null, 2))
      .join(",\n")}\n]}\n`;
    const records = await collect(await written("mixed.geojson", mixed));
    expect(records).toEqual(await byTokens({ type: "FeatureCollection", features: FEATURES }));
  });

  it("keeps a record for an element that is no Feature, and refuses a file cut short as the token reader does", async () => {
    const withNumber = byLine([FEATURES[0], 7, FEATURES[1]]);
    const records = await collect(await written("number.geojson", withNumber));
    expect(records).toEqual(await byTokens({ type: "FeatureCollection", features: [FEATURES[0], 7, FEATURES[1]] }));
    expect(records[1]).toEqual({ number: 2, error: "expected a GeoJSON Feature, found 7" });

    const cut = byLine(FEATURES).slice(0, -40);
    await expect(collect(await written("cut.geojson", cut))).rejects.toMatchObject({ code: "unreadable_source" });
    const unclosed = byLine(FEATURES, undefined, "]");
    await expect(collect(await written("unclosed.geojson", unclosed))).rejects.toMatchObject({
      code: "unreadable_source",
      message: expect.stringContaining("not valid JSON"),
    });
  });
});
