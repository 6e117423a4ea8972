import { describe, expect, it } from "vitest";
import { positionCount } from "./positions.js";
import { square } from "./test-shapes.js";

describe("positionCount", () => {
  // An import closes a batch at a number of positions, so that a file of huge polygons stays within its memory.
  it("counts every position of any geometry, closing positions included", () => {
    expect(positionCount(null)).toBe(0);
    expect(positionCount({ type: "Point", coordinates: [-71.06, 42.36] })).toBe(1);
    expect(positionCount(square(-71.06, 42.36, 0.001))).toBe(5);
    const withHole = square(-71.06, 42.36, 0.01);
    withHole.coordinates.push([...(square(-71.055, 42.365, 0.001).coordinates[0] ?? [])].reverse());
    expect(
      positionCount({ type: "MultiPolygon", coordinates: [withHole.coordinates, square(0, 0, 1).coordinates] }),
    ).toBe(15);
    expect(
      positionCount({
        type: "GeometryCollection",
        geometries: [
          {
            type: "LineString",
            coordinates: [
              [0, 0],
              [1, 1],
              [2, 0],
            ],
          },
          {
            type: "MultiPoint",
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
          square(0, 0, 1),
        ],
      }),
    ).toBe(10);
  });
});
