import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceRecord } from "../types.js";
import { readSource, SourceError } from "./index.js";
import { collect } from "./test-collect.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "lotline-geojson-test-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function fixture(name: string, content: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, content);
  return path;
}

function point(lon: number, lat: number, properties: Record<string, unknown> = {}) {
  return { type: "Feature", properties, geometry: { type: "Point", coordinates: [lon, lat] } };
}

describe("readSource on GeoJSON", () => {
  it("streams a FeatureCollection's features numbered by position, whatever the order of its members", async () => {
    const path = await fixture(
      "collection.geojson",
      JSON.stringify({
        features: [
          point(-71.1, 42.37, { name: "a" }),
          { type: "Feature", id: "b", properties: null, geometry: null },
          { type: "Polygon", coordinates: [] },
          point(-71.1, 42.37, { name: "d" }),
          { type: "Feature", properties: {}, geometry: { type: "LineString", coordinates: [[-71.1, "x"]] } },
          { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [768231.67, 2959323.26] } },
        ],
        type: "FeatureCollection",
        name: "after the features",
      }),
    );
    const records = await collect(path);
    expect(records.map((record) => record.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(records[0]).toEqual({ number: 1, feature: point(-71.1, 42.37, { name: "a" }) });
    // A feature without geometry is the importer's business, not the reader's.
    expect(records[1]).toEqual({ number: 2, feature: { type: "Feature", id: "b", properties: {}, geometry: null } });
    expect(records[2]).toEqual({ number: 3, error: expect.stringContaining('found a "Polygon"') });
    expect(records[3]).toMatchObject({ number: 4, feature: { properties: { name: "d" } } });
    expect(records[4]).toEqual({ number: 5, error: expect.stringContaining("position [x, y]") });
    expect(records[5]).toEqual({ number: 6, error: expect.stringContaining("--crs") });
  });

  it("hands out the first features before the file is read to the end", async () => {
    const features = Array.from({ length: 10_000 }, (_, i) => point(-71.1, 42.37, { i, label: `feature ${i}` }));
    const path = await fixture("large.geojson", JSON.stringify({ type: "FeatureCollection", features }));
    let bytesRead = 0;
    let totalBytes = 0;
    const onProgress = (read: number, total: number) => {
      bytesRead = read;
      totalBytes = total;
    };
    let count = 0;
    for await (const record of readSource(path, { onProgress })) {
      count += 1;
      if (count === 1) {
        expect(record).toMatchObject({ number: 1, feature: { properties: { i: 0 } } });
        expect(bytesRead).toBeGreaterThan(0);
        expect(bytesRead).toBeLessThan(totalBytes / 4);
      }
    }
    expect(count).toBe(10_000);
    expect(bytesRead).toBe(totalBytes);
  });

  it("reads a single Feature, a bare geometry and a top-level array of features", async () => {
    const single = await fixture("single.geojson", JSON.stringify({ ...point(-71.1, 42.37, { a: 1 }), id: 7 }));
    expect(await collect(single)).toEqual([{ number: 1, feature: { ...point(-71.1, 42.37, { a: 1 }), id: 7 } }]);
    const bare = await fixture("bare.json", JSON.stringify({ type: "Point", coordinates: [-71.1, 42.37, 5] }));
    expect(await collect(bare)).toEqual([
      {
        number: 1,
        feature: { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [-71.1, 42.37, 5] } },
      },
    ]);
    const array = await fixture("array.json", JSON.stringify([point(1, 2), 42, point(3, 4)]));
    expect(await collect(array)).toEqual([
      { number: 1, feature: point(1, 2) },
      { number: 2, error: "expected a GeoJSON Feature, found 42" },
      { number: 3, feature: point(3, 4) },
    ]);
  });

  it("reads an empty FeatureCollection as no records", async () => {
    const path = await fixture("empty.geojson", '{"type": "FeatureCollection", "features": []}');
    expect(await collect(path)).toEqual([]);
  });

  it("reprojects from a crs member that comes before the features, or from options.crs", async () => {
    const stateplane = {
      type: "Feature",
      properties: {},
      geometry: { type: "Point", coordinates: [765377.78, 2955291.45] },
    };
    const crs = { type: "name", properties: { name: "urn:ogc:def:crs:EPSG::2249" } };
    const withMember = await fixture(
      "crs.geojson",
      JSON.stringify({ type: "FeatureCollection", crs, features: [stateplane] }),
    );
    const [record] = await collect(withMember);
    const [lon, lat] = (record as { feature: { geometry: { coordinates: number[] } } }).feature.geometry.coordinates;
    expect(lon).toBeCloseTo(-71.0959, 3);
    expect(lat).toBeCloseTo(42.3568, 3);

    const without = await fixture(
      "nocrs.geojson",
      JSON.stringify({ type: "FeatureCollection", features: [stateplane] }),
    );
    expect(await collect(without, { crs: "EPSG:2249" })).toEqual([record]);
    // options.crs wins over the member
    expect(await collect(withMember, { crs: "EPSG:4326" })).toEqual([
      { number: 1, error: expect.stringContaining("not a WGS 84 longitude/latitude") },
    ]);
  });

  it("reads a .json file that holds TopoJSON as TopoJSON", async () => {
    const topology = {
      type: "Topology",
      objects: { places: { type: "GeometryCollection", geometries: [{ type: "Point", coordinates: [1, 2] }] } },
      arcs: [],
    };
    const path = await fixture("topology.json", JSON.stringify(topology));
    expect(await collect(path)).toEqual([
      { number: 1, feature: { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [1, 2] } } },
    ]);
  });

  it("throws a SourceError for invalid JSON, after handing out the features read before it", async () => {
    // Large enough that the parser hands out the first features before it meets the fault.
    const features = Array.from({ length: 3000 }, (_, i) => JSON.stringify(point(-71.1, 42.37, { i })));
    const path = await fixture(
      "broken.geojson",
      `{"type": "FeatureCollection", "features": [${features.join(",")}, {"type": "Fea`,
    );
    const seen: SourceRecord[] = [];
    const reading = (async () => {
      for await (const record of readSource(path)) seen.push(record);
    })();
    await expect(reading).rejects.toThrow(SourceError);
    await expect(reading).rejects.toMatchObject({
      code: "unreadable_source",
      message: expect.stringMatching(/not valid JSON after feature \d+/),
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.map((record) => record.number)).toEqual(seen.map((_, i) => i + 1));

    const garbage = await fixture("garbage.geojson", '{"type": "FeatureCollection", "features": [} ]');
    await expect(collect(garbage)).rejects.toThrow(/not valid JSON/);
    const truncated = await fixture("truncated.geojson", '{"type": "FeatureCollection", "features": [');
    await expect(collect(truncated)).rejects.toMatchObject({ code: "unreadable_source" });
  });

  it("throws a SourceError for JSON that is not GeoJSON, and for an empty file", async () => {
    await expect(collect(await fixture("other.json", '{"type": "Catalog", "items": []}'))).rejects.toThrow(
      /not GeoJSON.*"Catalog"/,
    );
    await expect(collect(await fixture("number.json", "42"))).rejects.toThrow(/not GeoJSON/);
    await expect(collect(await fixture("nothing.geojson", ""))).rejects.toThrow(/empty/);
    await expect(
      collect(await fixture("bad-features.geojson", '{"type": "FeatureCollection", "features": 3}')),
    ).rejects.toMatchObject({
      code: "unreadable_source",
    });
  });

  it("rejects an unknown EPSG code with a clear error", async () => {
    const path = await fixture(
      "unknown-crs.geojson",
      JSON.stringify({ type: "FeatureCollection", features: [point(1, 2)] }),
    );
    await expect(collect(path, { crs: "EPSG:99999" })).rejects.toMatchObject({
      code: "unknown_crs",
      message: expect.stringContaining("unknown coordinate system EPSG:99999"),
    });
  });
});
