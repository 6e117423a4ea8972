import { describe, expect, it } from "vitest";
import { geodesicArea } from "../geo/geometry/index.js";
import type { Area, Position } from "../geo/types.js";
import {
  BOUNDARY_INVALID,
  BOUNDARY_SELF_INTERSECTING,
  BOUNDARY_TOO_LARGE,
  BOUNDARY_TOO_SMALL,
  checkBoundary,
  FAILURE_REASONS,
} from "./index.js";

/** Metres of latitude and (at 42.37° N) longitude per degree, near enough to size test squares. */
const M_PER_DEG_LAT = 111_100;
const M_PER_DEG_LON = 82_100;
const ORIGIN: Position = [-71.08, 42.37];

/** A square of `side` metres at Cambridge, as a user would draw it: clockwise and left open. */
function drawnSquare(side: number): unknown {
  const [lon, lat] = ORIGIN as [number, number];
  const dLon = side / M_PER_DEG_LON;
  const dLat = side / M_PER_DEG_LAT;
  return {
    type: "Polygon",
    coordinates: [
      [
        [lon, lat],
        [lon, lat + dLat],
        [lon + dLon, lat + dLat],
        [lon + dLon, lat],
      ],
    ],
  };
}

describe("checkBoundary (a boundary drawn in an order)", () => {
  it("accepts a lot-sized square, closed and wound counter-clockwise", () => {
    const checked = checkBoundary(drawnSquare(20));
    expect("reason" in checked).toBe(false);
    const area = checked as Area;
    expect(area.type).toBe("Polygon");
    expect(geodesicArea(area)).toBeGreaterThan(390);
    expect(geodesicArea(area)).toBeLessThan(410);
    const ring = (area as { coordinates: Position[][] }).coordinates[0] ?? [];
    expect(ring.at(0)).toEqual(ring.at(-1));
  });

  it("refuses a bow-tie rather than reading it as two triangles", () => {
    const [lon, lat] = ORIGIN as [number, number];
    const bowTie = {
      type: "Polygon",
      coordinates: [
        [
          [lon, lat],
          [lon + 0.0003, lat + 0.0003],
          [lon + 0.0003, lat],
          [lon, lat + 0.0003],
          [lon, lat],
        ],
      ],
    };
    expect(checkBoundary(bowTie)).toMatchObject({ reason: BOUNDARY_SELF_INTERSECTING });
  });

  it("refuses a 1 m² square as too small and a 10 km² square as too large", () => {
    expect(checkBoundary(drawnSquare(1))).toMatchObject({ reason: BOUNDARY_TOO_SMALL });
    expect(checkBoundary(drawnSquare(Math.sqrt(10_000_000)))).toMatchObject({ reason: BOUNDARY_TOO_LARGE });
  });

  it("refuses what is not a polygon, with validateArea's reason in the detail", () => {
    expect(checkBoundary({ type: "Point", coordinates: ORIGIN })).toMatchObject({
      reason: BOUNDARY_INVALID,
      detail: expect.stringMatching(/^NOT_POLYGONAL: /),
    });
    expect(checkBoundary(undefined)).toMatchObject({ reason: BOUNDARY_INVALID });
    expect(checkBoundary({ type: "Polygon", coordinates: [[ORIGIN, [-71.0799, 42.37], ORIGIN]] })).toMatchObject({
      reason: BOUNDARY_INVALID,
      detail: expect.stringMatching(/^TOO_FEW_POSITIONS: /),
    });
  });

  it("lists every reason it answers among the documented failure reasons", () => {
    for (const reason of [BOUNDARY_INVALID, BOUNDARY_SELF_INTERSECTING, BOUNDARY_TOO_SMALL, BOUNDARY_TOO_LARGE]) {
      expect(FAILURE_REASONS).toContain(reason);
    }
  });
});
