import { pointToLineDistance } from "@turf/point-to-line-distance";
import fc from "fast-check";
import type { LineString } from "geojson";
import { describe, expect, it } from "vitest";
import type { Geometry, Polygon, Position } from "../types.js";
import { distanceToGeometry } from "./distance-to-geometry.js";
import { geodesicDistance } from "./geodesic-distance.js";
import { rectangle, square } from "./test-shapes.js";
import { WGS84 } from "./wgs84.js";

const line = (...coordinates: Position[]): LineString => ({ type: "LineString", coordinates });

/**
 * The distance from a point to the geodesic a–b by brute force: golden-section search along the edge for the
 * least {@link geodesicDistance}, from 64 samples — no perpendicular foot, no bounds.
 */
function bruteForce(point: Position, [a, b]: [Position, Position]): number {
  const edge = WGS84.InverseLine(a[1] ?? 0, a[0] ?? 0, b[1] ?? 0, b[0] ?? 0);
  const at = (s: number) => {
    const { lat2 = 0, lon2 = 0 } = edge.Position(s);
    return geodesicDistance(point, [lon2, lat2]);
  };
  const samples = 64;
  let best = 0;
  for (let i = 1; i <= samples; i++) if (at((i * edge.s13) / samples) < at((best * edge.s13) / samples)) best = i;
  let low = (Math.max(0, best - 1) * edge.s13) / samples;
  let high = (Math.min(samples, best + 1) * edge.s13) / samples;
  const ratio = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 80; i++) {
    const m1 = high - ratio * (high - low);
    const m2 = low + ratio * (high - low);
    if (at(m1) < at(m2)) high = m2;
    else low = m1;
  }
  return Math.min(at((low + high) / 2), at(0), at(edge.s13));
}

describe("distanceToGeometry", () => {
  const lot = square(-71.06, 42.36, 0.001);

  it("to a point or points is the geodesic distance to the nearest", () => {
    const here = [-71.06, 42.36];
    expect(distanceToGeometry(here, { type: "Point", coordinates: [-71.05, 42.36] })).toBe(
      geodesicDistance(here, [-71.05, 42.36]),
    );
    const multi: Geometry = {
      type: "MultiPoint",
      coordinates: [
        [-71, 42],
        [-71.059, 42.361],
        [-71.058, 42.36],
      ],
    };
    expect(distanceToGeometry(here, multi)).toBe(geodesicDistance(here, [-71.059, 42.361]));
  });

  it("is 0 inside a polygon and on its boundary", () => {
    expect(distanceToGeometry([-71.0595, 42.3605], lot)).toBe(0);
    expect(distanceToGeometry([-71.06, 42.3605], lot)).toBe(0);
    expect(distanceToGeometry([-71.06, 42.36], lot)).toBe(0);
  });

  it("past the end of an edge is the distance to its nearest vertex", () => {
    expect(distanceToGeometry([0, 2], line([0, 0], [0, 1]))).toBeCloseTo(geodesicDistance([0, 1], [0, 2]), 6);
    expect(distanceToGeometry([-71.061, 42.359], lot)).toBeCloseTo(
      geodesicDistance([-71.061, 42.359], [-71.06, 42.36]),
      6,
    );
  });

  it("beside an edge is the geodesic distance to the foot of the perpendicular", () => {
    // East of the middle of a meridian edge: the nearest point is on the meridian, at about the same latitude.
    const point = [-71.0585, 42.3605];
    const expected = bruteForce(point, [
      [-71.059, 42.36],
      [-71.059, 42.361],
    ]);
    expect(distanceToGeometry(point, lot)).toBeCloseTo(expected, 3);
    expect(distanceToGeometry(point, lot)).toBeCloseTo(geodesicDistance(point, [-71.059, 42.3605]), 2);
    expect(expected).toBeCloseTo(41.19, 1);
  });

  it("agrees with a brute-force search along random edges to the millimetre, from parcel to city scale", () => {
    const position = (spread: number) =>
      fc.tuple(
        fc.double({ min: -spread, max: spread, noNaN: true }),
        fc.double({ min: -spread, max: spread, noNaN: true }),
      );
    const scene = fc.record({
      lon: fc.double({ min: -179, max: 179, noNaN: true }),
      lat: fc.double({ min: -80, max: 80, noNaN: true }),
      a: position(0.01),
      b: position(0.01),
      p: position(0.05),
    });
    fc.assert(
      fc.property(scene, ({ lon, lat, a, b, p }) => {
        const at = ([x, y]: [number, number]) => [lon + x, lat + y];
        const edge: [Position, Position] = [at(a), at(b)];
        const measured = distanceToGeometry(at(p), line(...edge));
        expect(Math.abs(measured - bruteForce(at(p), edge))).toBeLessThan(1e-3);
      }),
      { numRuns: 100 },
    );
  });

  it("measures an edge shorter than the rounding of its ends as a point (no NaN)", () => {
    const edge = line([0, 0.009999999999999986], [0, 0.009999999999999983]);
    expect(distanceToGeometry([0, 0], edge)).toBeCloseTo(geodesicDistance([0, 0], [0, 0.01]), 6);
  });

  it("agrees with turf's spherical pointToLineDistance within the sphere's error (0.6 %)", () => {
    const edge = line([-71.06, 42.36], [-71.05, 42.37]);
    const point = [-71.05, 42.36];
    const turf = pointToLineDistance(point, edge, { units: "meters" });
    expect(Math.abs(distanceToGeometry(point, edge) / turf - 1)).toBeLessThan(0.006);
  });

  it("inside a hole is the distance to the hole's edge", () => {
    const outer = square(0, 0, 0.003);
    const hole = [...(square(0.001, 0.001, 0.001).coordinates[0] ?? [])].reverse();
    const donut: Polygon = { type: "Polygon", coordinates: [outer.coordinates[0] ?? [], hole] };
    expect(distanceToGeometry([0.0015, 0.0012], donut)).toBeCloseTo(
      geodesicDistance([0.0015, 0.0012], [0.0015, 0.001]),
      3,
    );
  });

  it("to a MultiPolygon, MultiLineString or GeometryCollection is to the nearest member; nothing is Infinity", () => {
    const far = square(1, 1, 0.001);
    const point = [-71.0585, 42.3605];
    const expected = distanceToGeometry(point, lot);
    expect(distanceToGeometry(point, { type: "MultiPolygon", coordinates: [far.coordinates, lot.coordinates] })).toBe(
      expected,
    );
    expect(
      distanceToGeometry(point, {
        type: "MultiLineString",
        coordinates: [far.coordinates[0] ?? [], lot.coordinates[0] ?? []],
      }),
    ).toBe(expected);
    expect(distanceToGeometry(point, { type: "GeometryCollection", geometries: [far, lot] })).toBe(expected);
    expect(distanceToGeometry(point, { type: "MultiPoint", coordinates: [] })).toBe(Number.POSITIVE_INFINITY);
  });

  it("skips far edges of a long boundary without missing the nearest", () => {
    // A circle of 5,000 vertices, 1 km across; the answer must equal the least of the per-edge distances.
    const ring: Position[] = [];
    for (let i = 0; i <= 5000; i++) {
      const t = (2 * Math.PI * i) / 5000;
      ring.push([-71.06 + 0.006 * Math.cos(t), 42.36 + 0.0045 * Math.sin(t)]);
    }
    const circle: Polygon = { type: "Polygon", coordinates: [ring] };
    const point = [-71.06 + 0.0071, 42.3613];
    const measured = distanceToGeometry(point, circle);
    let expected = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5000; i += 1) {
      expected = Math.min(expected, distanceToGeometry(point, line(ring[i] ?? [], ring[i + 1] ?? [])));
    }
    expect(measured).toBe(expected);
  });

  it("is 0 inside and more than 0 outside a random rectangle", () => {
    const scene = fc.record({
      west: fc.double({ min: -179, max: 178, noNaN: true }),
      south: fc.double({ min: -80, max: 79, noNaN: true }),
      width: fc.double({ min: 1e-4, max: 0.1, noNaN: true }),
      height: fc.double({ min: 1e-4, max: 0.1, noNaN: true }),
      // Thousandths of the width and height, never on the edge itself.
      u: fc.integer({ min: -999, max: 1999 }).filter((k) => k !== 0 && k !== 1000),
      v: fc.integer({ min: -999, max: 1999 }).filter((k) => k !== 0 && k !== 1000),
    });
    fc.assert(
      fc.property(scene, ({ west, south, width, height, u, v }) => {
        const rect = rectangle(west, south, west + width, south + height);
        const point = [west + (u / 1000) * width, south + (v / 1000) * height];
        const inside = u > 0 && u < 1000 && v > 0 && v < 1000;
        if (inside) expect(distanceToGeometry(point, rect)).toBe(0);
        else expect(distanceToGeometry(point, rect)).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});
