import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Geometry, SourceRecord } from "../types.js";
import { readSource, SourceError } from "./index.js";
import { collect } from "./test-collect.js";

/** Every position of a geometry. */
function positions(geometry: Geometry): number[][] {
  if (geometry.type === "GeometryCollection") return geometry.geometries.flatMap(positions);
  if (geometry.type === "Point") return [geometry.coordinates];
  const out: number[][] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value) && typeof value[0] === "number") out.push(value as number[]);
    else if (Array.isArray(value)) value.forEach(walk);
  };
  walk(geometry.coordinates);
  return out;
}

describe("readSource", () => {
  it("throws a SourceError for a missing file, a folder, or a name that says no format", async () => {
    const folder = await mkdtemp(join(tmpdir(), "lotline-read-source-test-"));
    try {
      await expect(collect(join(folder, "missing.geojson"))).rejects.toMatchObject({
        code: "source_not_found",
        message: expect.stringContaining("missing.geojson: no such file"),
      });
      await expect(collect(folder, { format: "geojson" })).rejects.toMatchObject({ code: "source_not_found" });
      const text = join(folder, "parcels.txt");
      await writeFile(text, "");
      const error = await collect(text).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(SourceError);
      expect(error).toMatchObject({ code: "unsupported_format", message: expect.stringContaining(".geojson") });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

const CAMBRIDGE = fileURLToPath(new URL("../../../../../../shared/data/cambridge/", import.meta.url));
const haveCambridge = existsSync(CAMBRIDGE);

describe.skipIf(!haveCambridge)("readSource on the Cambridge open data (../shared/data; skipped where absent)", () => {
  it("reads the 13,116 parcels of the TopoJSON, with their ML, in Cambridge", async () => {
    const records = await collect(join(CAMBRIDGE, "parcels-fy2014.topojson"));
    expect(records).toHaveLength(13_116);
    let multiPolygons = 0;
    const withoutMl: unknown[] = [];
    for (const [i, record] of records.entries()) {
      if (record.number !== i + 1) throw new Error(`record ${i + 1} is numbered ${record.number}`);
      if (!("feature" in record)) throw new Error(`parcel ${record.number}: ${record.error}`);
      if (!("ML" in record.feature.properties)) withoutMl.push(record.feature.id);
      const { geometry } = record.feature;
      if (!geometry) throw new Error(`parcel ${record.number} has no geometry`);
      if (geometry.type === "MultiPolygon") multiPolygons += 1;
      for (const [lon = 0, lat = 0] of positions(geometry)) {
        if (lon < -71.17 || lon > -71.06 || lat < 42.35 || lat > 42.41)
          throw new Error(`parcel ${record.number}: ${lon} ${lat}`);
      }
    }
    expect(multiPolygons).toBe(8);
    // One parcel of the file carries MAP and LOC_ID but no ML.
    expect(withoutMl).toEqual([12591]);
    expect(records[0]).toMatchObject({ number: 1, feature: { id: 10002, properties: { ML: "127-123" } } });
  });

  it.each([
    ["fema-floodplain-100yr.geojson", 21],
    ["fema-floodplain-500yr.geojson", 39],
    ["fire-stations.geojson", 8],
    ["hydrants.geojson", 1960],
    ["swimming-pools.geojson", 64],
    ["zoning-districts.geojson", 261],
    ["historic-districts.geojson", 2],
  ])("reads layers/%s: %i features, none in error", async (name, count) => {
    const records = await collect(join(CAMBRIDGE, "layers", name));
    expect(records).toHaveLength(count);
    expect(records.filter((record) => "error" in record)).toEqual([]);
    expect(records.map((record) => record.number)).toEqual(records.map((_, i) => i + 1));
  });

  it("streams the 27,528 assessor rows numbered by line, the header being line 1", async () => {
    let count = 0;
    let last = 1;
    let first: SourceRecord | undefined;
    let progress = 0;
    let total = 0;
    const onProgress = (read: number, size: number) => {
      progress = read;
      total = size;
    };
    for await (const record of readSource(join(CAMBRIDGE, "assessor-fy2014.csv"), { onProgress })) {
      count += 1;
      first ??= record;
      if (!("feature" in record)) throw new Error(`line ${record.number}: ${record.error}`);
      if (record.number !== last + 1) throw new Error(`line ${record.number} follows line ${last}`);
      last = record.number;
    }
    expect(count).toBe(27_528);
    expect(last).toBe(27_529);
    expect(first).toMatchObject({
      number: 2,
      feature: { geometry: null, properties: { ML: "7-18", Location: "219 MONSIGNOR OBRIEN HWY", UseCode: "337" } },
    });
    expect(progress).toBe(total);
    expect(total).toBeGreaterThan(3_000_000);
  });
});
