import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceRecord } from "../types.js";
import { collect } from "./test-collect.js";

let folder: string;
let path: string;

/**
 * A quantized topology: two lots sharing arc 1 (a unit square split down the middle, in a grid of 10 × 10 steps of
 * 0.01° from −71.1, 42.3), and an object of two points, the second without geometry.
 */
const TOPOLOGY = {
  type: "Topology",
  transform: { scale: [0.01, 0.01], translate: [-71.1, 42.3] },
  arcs: [
    [
      [5, 0],
      [-5, 0],
      [0, 10],
      [5, 0],
    ],
    [
      [5, 10],
      [0, -10],
    ],
    [
      [5, 0],
      [5, 0],
      [0, 10],
      [-5, 0],
    ],
  ],
  objects: {
    lots: {
      type: "GeometryCollection",
      geometries: [
        { type: "Polygon", arcs: [[0, 1]], id: "west", properties: { ML: "1-1" } },
        { type: "Polygon", arcs: [[2, -2]], properties: { ML: "1-2" } },
        { type: "Polygon", arcs: [[7]], properties: { ML: "broken" } },
      ],
    },
    hydrants: {
      type: "GeometryCollection",
      geometries: [
        { type: "Point", coordinates: [1, 1], properties: { n: 1 } },
        { type: null, properties: { n: 2 } },
      ],
    },
  },
};

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "lotline-topojson-test-"));
  path = join(folder, "lots.topojson");
  await writeFile(path, JSON.stringify(TOPOLOGY));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function rounded(record: SourceRecord | undefined): unknown {
  return JSON.parse(JSON.stringify(record), (_, value) =>
    typeof value === "number" ? Math.round(value * 1e6) / 1e6 : value,
  );
}

describe("readSource on TopoJSON", () => {
  it("reads every object's geometries, decoding quantized shared arcs, numbered across the file", async () => {
    const records = await collect(path);
    expect(records.map((record) => record.number)).toEqual([1, 2, 3, 4, 5]);
    expect(rounded(records[0])).toEqual({
      number: 1,
      feature: {
        type: "Feature",
        id: "west",
        properties: { ML: "1-1" },
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [-71.05, 42.3],
              [-71.1, 42.3],
              [-71.1, 42.4],
              [-71.05, 42.4],
              [-71.05, 42.3],
            ],
          ],
        },
      },
    });
    expect(rounded(records[1])).toMatchObject({ number: 2, feature: { properties: { ML: "1-2" } } });
    expect(records[2]).toEqual({ number: 3, error: expect.stringContaining("cannot decode the TopoJSON geometry") });
    expect(rounded(records[3])).toEqual({
      number: 4,
      feature: { type: "Feature", properties: { n: 1 }, geometry: { type: "Point", coordinates: [-71.09, 42.31] } },
    });
    expect(records[4]).toEqual({ number: 5, feature: { type: "Feature", properties: { n: 2 }, geometry: null } });
  });

  it("reads only options.object when given, numbering from 1", async () => {
    const records = await collect(path, { object: "hydrants" });
    expect(records.map((record) => record.number)).toEqual([1, 2]);
    expect(records[1]).toMatchObject({ feature: { properties: { n: 2 } } });
  });

  it("throws a SourceError naming the objects when options.object names none of them", async () => {
    await expect(collect(path, { object: "parcels" })).rejects.toMatchObject({
      code: "unknown_object",
      message: expect.stringContaining('no object "parcels"; its objects are "lots", "hydrants"'),
    });
  });

  it("throws a SourceError for a file that is not TopoJSON or not JSON", async () => {
    const geojson = join(folder, "not.topojson");
    await writeFile(geojson, JSON.stringify({ type: "FeatureCollection", features: [] }));
    await expect(collect(geojson)).rejects.toMatchObject({
      code: "unreadable_source",
      message: expect.stringContaining("not TopoJSON"),
    });
    const broken = join(folder, "broken.topojson");
    await writeFile(broken, '{"type": "Topology", ');
    await expect(collect(broken)).rejects.toThrow(/not valid JSON/);
  });
});
