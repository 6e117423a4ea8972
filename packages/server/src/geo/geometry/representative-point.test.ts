import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Area, MultiPolygon, Polygon, Position } from "../types.js";
import { representativePoint } from "./representative-point.js";
import { convexPolygon, square } from "./test-shapes.js";

const strictlyInside = (area: Area, point: Position) => booleanPointInPolygon(point, area, { ignoreBoundary: true });

/** An L: a square of `side` from the origin less its north-east part, leaving arms `arm` wide. */
function lShaped(side: number, arm: number): Polygon {
  const ring = [
    [0, 0],
    [side, 0],
    [side, arm],
    [arm, arm],
    [arm, side],
    [0, side],
    [0, 0],
  ];
  return { type: "Polygon", coordinates: [ring] };
}

describe("representativePoint", () => {
  it("is the centre of a rectangle", () => {
    const [lon, lat] = representativePoint(square(-71.06, 42.36, 0.002));
    expect(lon).toBeCloseTo(-71.059, 12);
    expect(lat).toBeCloseTo(42.361, 12);
  });

  it("lies strictly inside an L-shaped lot, whose box centre is outside, and is none of its corners", () => {
    const lShape = lShaped(0.003, 0.001);
    const point = representativePoint(lShape);
    expect(strictlyInside(lShape, point)).toBe(true);
    expect(lShape.coordinates[0]).not.toContainEqual(point);
  });

  it("is not the centre of the box when that lies on the boundary, as at an L's inner corner", () => {
    const lShape = lShaped(0.002, 0.001);
    const point = representativePoint(lShape);
    expect(point).not.toEqual([0.001, 0.001]);
    expect(strictlyInside(lShape, point)).toBe(true);
  });

  it("lies strictly inside a lot wrapped round a hole, not in the hole", () => {
    const donut: Polygon = {
      type: "Polygon",
      coordinates: [
        square(0, 0, 0.003).coordinates[0] ?? [],
        [...(square(0.001, 0.001, 0.001).coordinates[0] ?? [])].reverse(),
      ],
    };
    expect(strictlyInside(donut, representativePoint(donut))).toBe(true);
  });

  it("lies strictly inside a MultiPolygon whose parts are far apart", () => {
    const apart: MultiPolygon = {
      type: "MultiPolygon",
      coordinates: [square(0, 0, 0.001).coordinates, square(0.01, 0.01, 0.002).coordinates],
    };
    const point = representativePoint(apart);
    expect(strictlyInside(apart, point)).toBe(true);
    expect(strictlyInside(square(0.01, 0.01, 0.002), point)).toBe(true);
  });

  it("lies strictly inside random convex polygons and random crescents", () => {
    const shape = fc.record({
      lon: fc.double({ min: -179, max: 179, noNaN: true }),
      lat: fc.double({ min: -80, max: 80, noNaN: true }),
      radii: fc.tuple(
        fc.double({ min: 1e-4, max: 0.01, noNaN: true }),
        fc.double({ min: 1e-4, max: 0.01, noNaN: true }),
      ),
      angles: fc.uniqueArray(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 16 }),
      bite: fc.double({ min: 0.3, max: 0.9, noNaN: true }),
    });
    fc.assert(
      fc.property(shape, ({ lon, lat, radii, angles, bite }) => {
        const convex = convexPolygon([lon, lat], radii, angles);
        expect(strictlyInside(convex, representativePoint(convex))).toBe(true);
        // A crescent: the outer arc, then back along a smaller arc bulging the same way; the box centre is outside.
        const outer = convexPolygon([lon, lat], radii, [0, 30, 60, 90, 120, 150, 180]).coordinates[0] ?? [];
        const inner =
          convexPolygon([lon, lat], [radii[0], radii[1] * bite], [30, 60, 90, 120, 150]).coordinates[0] ?? [];
        const crescent: Polygon = {
          type: "Polygon",
          coordinates: [[...outer.slice(0, -1), ...inner.slice(0, -1).reverse(), outer[0] ?? []]],
        };
        expect(strictlyInside(crescent, representativePoint(crescent))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
