import { describe, expect, it } from "vitest";
import { packPolygons, unpackPolygons } from "./packed-polygons.js";
import { square } from "./test-shapes.js";
import { validateArea } from "./validate-area.js";

describe("packPolygons", () => {
  it("packs a Polygon and a MultiPolygon with holes into flat arrays, and unpacks them as they were", () => {
    const lake = square(0, 0, 3).coordinates;
    const withHole = { type: "Polygon", coordinates: [lake[0], ...square(1, 1, 1).coordinates] };
    const multi = { type: "MultiPolygon", coordinates: [withHole.coordinates, square(5, 5, 1).coordinates] };
    for (const geometry of [withHole, multi]) {
      const packed = packPolygons(geometry);
      expect(packed?.coordinates).toBeInstanceOf(Float64Array);
      expect(packed && unpackPolygons(packed)).toEqual(geometry);
    }
  });

  it("leaves out elevations, which change no verdict", () => {
    const high = { type: "Polygon", coordinates: [square(0, 0, 1).coordinates[0]?.map(([x, y]) => [x, y, 12])] };
    const packed = packPolygons(high);
    expect(packed && unpackPolygons(packed)).toEqual(square(0, 0, 1));
  });

  it("packs nothing it cannot carry whole, so that validation still names the fault", () => {
    for (const geometry of [
      null,
      { type: "Point", coordinates: [0, 0] },
      { type: "Polygon", coordinates: [[[0, 0], [1], [1, 1], [0, 0]]] },
      {
        type: "Polygon",
        coordinates: [
          [
            [0, "0"],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      { type: "MultiPolygon", coordinates: [[0, 0]] },
    ]) {
      expect(packPolygons(geometry), JSON.stringify(geometry)).toBeUndefined();
      expect(validateArea(geometry).valid).toBe(false);
    }
  });
});
