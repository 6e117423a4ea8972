import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { collect } from "./test-collect.js";
import { testFolder } from "./test-folder.js";

const feature = (n: number) => ({
  type: "Feature",
  properties: { number: String(n), street: "Main St", hash: `h${n}` },
  geometry: { type: "Point", coordinates: [-89.6 - n / 1000, 39.8] },
});

const { written } = testFolder("feature-per-line-test");

describe("a .geojson file", () => {
  it("holding one Feature a line, as OpenAddresses publishes, is read line by line, numbered by line", async () => {
    const lines = `${[1, 2, 3].map((n) => JSON.stringify(feature(n))).join("\n")}\n{ not json\n`;
    for (const path of [await written("oa.geojson", lines), await written("oa.geojson.gz", gzipSync(lines))]) {
      const records = await collect(path);
      expect(records.slice(0, 3)).toEqual([1, 2, 3].map((n) => ({ number: n, feature: feature(n) })));
      expect(records[3]).toMatchObject({ number: 4, error: expect.any(String) });
    }
  });

  it("holding a FeatureCollection, over many lines or one, or a lone Feature, is read as GeoJSON", async () => {
    const features = [1, 2].map(feature);
    const collection = { type: "FeatureCollection", features };
    const expected = features.map((f, i) => ({ number: i + 1, feature: f }));
    expect(await collect(await written("pretty.geojson", JSON.stringify(collection, null, 2)))).toEqual(expected);
    expect(await collect(await written("one-line.geojson", `${JSON.stringify(collection)}\n`))).toEqual(expected);
    expect(await collect(await written("lone.geojson", `${JSON.stringify(feature(1))}\n\n`))).toEqual([
      { number: 1, feature: feature(1) },
    ]);
  });
});
