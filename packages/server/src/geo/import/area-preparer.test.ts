import { describe, expect, it } from "vitest";
import type { Geometry } from "../types.js";
import { measure, prepareAreas, type SourceIds, sourceIdOf } from "./area-batch.js";
import { type AreaBatch, prepareOnThread } from "./area-preparer.js";
import { packGeometries } from "./geometry-transfer.js";
import type { ReadRecord } from "./run-import.js";

const ids: SourceIds = { kind: "buildings", idField: "BID" };

/** A square footprint some 10 m a side, the `n`th along a street. */
function square(n: number): Geometry {
  const [west, south, side] = [-71.1 + n * 0.0002, 42.37, 0.0001];
  const ring = [
    [west, south],
    [west + side, south],
    [west + side, south + side],
    [west, south + side],
    [west, south],
  ];
  return { type: "Polygon", coordinates: [ring] };
}

/**
 * 180 records, more than a thread takes at once: building 7 in three pieces far apart in the file, building 9 in two
 * whose first is too short to be a polygon (so it comes in the place of its second), a record with no id, another
 * too short and one with no geometry among them.
 */
function records(): ReadRecord[] {
  const ids = new Map<number, string | undefined>([
    [0, "7"],
    [95, "7"],
    [170, "7"],
    [10, "9"],
    [20, "9"],
    [40, undefined],
  ]);
  return Array.from({ length: 180 }, (_, i) => {
    const id = ids.has(i) ? ids.get(i) : `b${i}`;
    const geometry =
      i === 10 || i === 60
        ? {
            type: "Polygon",
            coordinates: [
              [
                [-71.1, 42.37],
                [-71.09, 42.37],
                [-71.1, 42.37],
              ],
            ],
          }
        : i === 130
          ? null
          : square(i);
    return {
      number: i + 1,
      feature: { type: "Feature", properties: id === undefined ? {} : { BID: id }, geometry },
    } as ReadRecord;
  });
}

describe("a batch of footprints prepared on an import thread, a few at a time", () => {
  it("comes out as the same areas, in the same order, with the same outcomes, as one pass over the batch", async () => {
    const batch = records();
    const onePass = prepareAreas(batch, ids, null);
    const sent: AreaBatch = {
      ids: batch.map((record) => sourceIdOf(ids, record)),
      geometries: packGeometries(batch.map((record) => record.feature.geometry)),
    };
    const onThread = await prepareOnThread(sent, { ids }, null);

    const expected = [...onePass.prepared.values()].map((area) => ({
      sourceId: area.sourceId,
      positions: area.positions,
      ...measure(area),
    }));
    expect(onThread.areas).toEqual(expected);
    expect(onThread.areas.find((area) => area.sourceId === "7")?.positions).toEqual([0, 95, 170]);
    expect(onThread.areas.findIndex((area) => area.sourceId === "9")).toBe(19);
    expect(new Map(onThread.outcomes)).toEqual(new Map(onePass.outcomes.flatMap((o, i) => (o ? [[i, o]] : []))));
    expect([...new Map(onThread.outcomes).keys()].sort((a, b) => a - b)).toEqual([10, 40, 60, 130]);
  });
});
