import { describe, expect, it } from "vitest";
import { bboxOf } from "./bbox-of.js";
import { square } from "./test-shapes.js";

describe("bboxOf", () => {
  it("bounds every position of any geometry", () => {
    expect(bboxOf(square(-71.06, 42.36, 0.001))).toEqual([-71.06, 42.36, -71.059, 42.361]);
    expect(bboxOf({ type: "Point", coordinates: [-71.06, 42.36] })).toEqual([-71.06, 42.36, -71.06, 42.36]);
    expect(
      bboxOf({
        type: "GeometryCollection",
        geometries: [
          {
            type: "LineString",
            coordinates: [
              [-71.06, 42.36],
              [-71.05, 42.35],
            ],
          },
          { type: "MultiPoint", coordinates: [[-72, 43]] },
        ],
      }),
    ).toEqual([-72, 42.35, -71.05, 43]);
  });

  it("ignores a stale bbox member", () => {
    expect(bboxOf({ ...square(0, 0, 1), bbox: [5, 5, 6, 6] })).toEqual([0, 0, 1, 1]);
  });

  it("gives an empty geometry a box that meets nothing", () => {
    expect(bboxOf({ type: "MultiPoint", coordinates: [] })).toEqual([
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
  });
});
