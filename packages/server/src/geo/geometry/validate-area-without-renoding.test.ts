import { describe, expect, it } from "vitest";
import type { Polygon, Position } from "../types.js";
import { EMPTY, HOLE_OUTSIDE_SHELL, NOT_SIMPLE, REWOUND } from "./area-validation.js";
import { square, starPolygon } from "./test-shapes.js";
import { validateArea } from "./validate-area.js";

const ring = (polygon: Polygon) => polygon.coordinates[0] ?? [];
const reversed = (positions: Position[]) => [...positions].reverse();
const refusing = (geometry: unknown) => validateArea(geometry, { renode: false });

describe("validateArea with renode: false (a client's boundary: refused, never re-noded)", () => {
  it("answers a valid area as the default does", () => {
    const lake = { type: "Polygon", coordinates: [reversed(ring(square(0, 0, 3))), ring(square(1, 1, 1))] };
    expect(refusing(lake)).toEqual(validateArea(lake));
    expect(refusing(lake)).toMatchObject({ valid: true, repairs: [REWOUND] });
  });

  it("refuses rings that cross or touch as NOT_SIMPLE, naming them", () => {
    const bowTie = {
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    expect(refusing(bowTie)).toEqual({ valid: false, reason: NOT_SIMPLE, detail: "ring 1 crosses or touches itself" });
    const crossingHole = { type: "Polygon", coordinates: [ring(square(0, 0, 2)), reversed(ring(square(1, 1, 2)))] };
    expect(refusing(crossingHole)).toEqual({
      valid: false,
      reason: NOT_SIMPLE,
      detail: "ring 1 and ring 2 cross or touch",
    });
    const corners = { type: "MultiPolygon", coordinates: [square(0, 0, 1).coordinates, square(1, 1, 1).coordinates] };
    expect(refusing(corners)).toMatchObject({
      reason: NOT_SIMPLE,
      detail: "polygon 1, ring 1 and polygon 2, ring 1 cross or touch",
    });
    expect(refusing({ type: "Polygon", coordinates: [starPolygon([0, 0], 1, 3200)] })).toMatchObject({
      reason: NOT_SIMPLE,
    });
  });

  it("refuses rings that lie where they must not, with the reason the default gives where it has one", () => {
    const stray = { type: "Polygon", coordinates: [ring(square(0, 0, 1)), reversed(ring(square(5, 5, 1)))] };
    expect(refusing(stray)).toEqual(validateArea(stray));
    expect(refusing(stray)).toMatchObject({ reason: HOLE_OUTSIDE_SHELL });
    const covering = { type: "Polygon", coordinates: [ring(square(0, 0, 1)), reversed(ring(square(-1, -1, 3)))] };
    expect(refusing(covering)).toMatchObject({ reason: EMPTY });
    const holeInHole = {
      type: "Polygon",
      coordinates: [ring(square(0, 0, 4)), reversed(ring(square(1, 1, 2))), reversed(ring(square(1.5, 1.5, 1)))],
    };
    expect(refusing(holeInHole)).toEqual({
      valid: false,
      reason: NOT_SIMPLE,
      detail: "ring 3 is a hole inside another hole",
    });
    const nested = { type: "MultiPolygon", coordinates: [square(0, 0, 4).coordinates, square(1, 1, 1).coordinates] };
    expect(refusing(nested)).toEqual({
      valid: false,
      reason: NOT_SIMPLE,
      detail: "polygon 2, ring 1 overlaps another polygon",
    });
    const moved = {
      type: "MultiPolygon",
      coordinates: [[ring(square(0, 0, 3)), reversed(ring(square(11, 1, 1)))], square(10, 0, 3).coordinates],
    };
    expect(refusing(moved)).toMatchObject({ reason: NOT_SIMPLE });
  });
});
