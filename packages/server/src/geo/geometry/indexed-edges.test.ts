import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Area, Polygon, Position } from "../types.js";
import { edgesOf, relateAreas } from "./areas-meet.js";
import { INDEXED_FROM_EDGES, indexedEdges, indexedEdgesWhenMetAgain } from "./indexed-edges.js";
import { polygonsOf } from "./positions.js";
import type { Pair } from "./read-polygons.js";
import { segmentsMeet } from "./segments-meet.js";
import { rectangle } from "./test-shapes.js";

/**
 * A star-shaped ring around (x, y): one vertex a step of the circle at each radius, on whole coordinates, so that
 * the rectangles below share its vertices and run along its edges. Counter-clockwise, closed.
 */
function star(x: number, y: number, radii: readonly number[]): Position[] {
  const ring = radii.map((radius, i): Position => {
    const angle = (2 * Math.PI * i) / radii.length;
    return [x + Math.round(radius * Math.cos(angle)), y + Math.round(radius * Math.sin(angle))];
  });
  return [...ring, ring[0] as Position];
}

/** Two stars, the first with a square hole around its middle: a multipolygon of many edges. */
function stars(radii: readonly number[]): Area {
  const hole = rectangle(-200, -200, 200, 200).coordinates[0] ?? [];
  return {
    type: "MultiPolygon",
    coordinates: [[star(0, 0, radii), [...hole].reverse()], [star(3000, 0, radii)]],
  };
}

/** relateAreas the slow way: every edge against every edge, and turf for the points in the areas. */
function relateByEveryPair(inner: Area, outer: Area): "apart" | "within" | "crossing" {
  const outerEdges = edgesOf(outer);
  if (edgesOf(inner).some(([a, b]) => outerEdges.some(([c, d]) => segmentsMeet(a, b, c, d)))) return "crossing";
  const parts = polygonsOf(inner).filter(([exterior]) => booleanPointInPolygon(exterior?.[0] as Position, outer));
  const ringInside = polygonsOf(outer).some((polygon) =>
    polygon.some((ring) => booleanPointInPolygon(ring[0] as Position, inner)),
  );
  if (parts.length === 0 && !ringInside) return "apart";
  return parts.length === polygonsOf(inner).length && !ringInside ? "within" : "crossing";
}

describe("indexedEdges", () => {
  it("indexes an area of many edges once, and leaves one of few to be walked", () => {
    const many = stars(Array.from({ length: INDEXED_FROM_EDGES }, () => 1000));
    expect(indexedEdges(many)?.polygons).toBe(2);
    expect(indexedEdges(many)).toBe(indexedEdges(many));
    expect(indexedEdges(rectangle(0, 0, 1, 1))).toBeUndefined();
  });

  it("leaves an area of many edges unindexed the first time a small one meets it, and indexes it the second", () => {
    const many = stars(Array.from({ length: INDEXED_FROM_EDGES }, () => 1000));
    expect(indexedEdgesWhenMetAgain(many)).toBeUndefined();
    const index = indexedEdgesWhenMetAgain(many);
    expect(index?.polygons).toBe(2);
    expect(indexedEdges(many)).toBe(index);
    expect(indexedEdgesWhenMetAgain(rectangle(0, 0, 1, 1))).toBeUndefined();
    expect(indexedEdgesWhenMetAgain(rectangle(0, 0, 1, 1))).toBeUndefined();
  });

  it("relates rectangles to a multipolygon of many edges, indexed or walked, as every pair of edges does", () => {
    const radii = fc.array(fc.integer({ min: 600, max: 1200 }), { minLength: INDEXED_FROM_EDGES, maxLength: 200 });
    const corner = fc.integer({ min: -1300, max: 4300 });
    const side = fc.integer({ min: 1, max: 900 });
    // Half of the rectangles start at a vertex of the first star, where touching is likeliest.
    const rectangles = fc.array(fc.tuple(corner, corner, side, side, fc.boolean(), fc.nat()), {
      minLength: 1,
      maxLength: 30,
    });
    fc.assert(
      fc.property(radii, rectangles, (radii, boxes) => {
        const area = stars(radii);
        const ring = polygonsOf(area)[0]?.[0] ?? [];
        for (const [x, y, width, height, atVertex, vertex] of boxes) {
          const [vx, vy] = atVertex ? (ring[vertex % ring.length] as Pair) : [x, y];
          const box: Polygon = rectangle(vx, vy, vx + width, vy + height);
          const expected = relateByEveryPair(box, area);
          // A fresh copy is met for the first time, so walked; `area` is indexed from its second comparison on.
          expect(relateAreas(box, stars(radii))).toBe(expected);
          expect(relateAreas(box, area)).toBe(expected);
          expect(relateAreas(area, box)).toBe(relateByEveryPair(area, box));
        }
      }),
      { numRuns: 150 },
    );
  });
});
