import type { Polygon, Position } from "../types.js";

// Plain builders of test geometries, shared by the tests beside them (no test framework, no fast-check, so this
// file compiles in any build).

/** The rectangle between two meridians and two parallels, counter-clockwise, closed. */
export function rectangle(west: number, south: number, east: number, north: number): Polygon {
  return {
    type: "Polygon",
    coordinates: [
      [
        [west, south],
        [east, south],
        [east, north],
        [west, north],
        [west, south],
      ],
    ],
  };
}

/** A square `size` degrees on a side with its south-west corner at `[lon, lat]`. */
export function square(lon: number, lat: number, size: number): Polygon {
  return rectangle(lon, lat, lon + size, lat + size);
}

/**
 * A convex polygon: the points of an ellipse (radii in degrees of longitude and latitude) at the given angles in
 * degrees, taken in increasing order, so counter-clockwise; closed.
 */
export function convexPolygon(centre: Position, radii: [number, number], anglesDegrees: number[]): Polygon {
  const [lon = 0, lat = 0] = centre;
  const ring = [...anglesDegrees]
    .sort((a, b) => a - b)
    .map((degrees) => {
      const t = (degrees * Math.PI) / 180;
      return [lon + radii[0] * Math.cos(t), lat + radii[1] * Math.sin(t)];
    });
  const [first] = ring;
  return { type: "Polygon", coordinates: [first ? [...ring, first] : []] };
}

/**
 * A star polygon {n/k}: `vertices` positions on a circle of `radius` degrees, each joined to the one almost
 * opposite, so that nearly every edge crosses nearly every other (an attacker's boundary); closed.
 */
export function starPolygon(centre: Position, radius: number, vertices: number): [number, number][] {
  const [lon = 0, lat = 0] = centre;
  let step = Math.floor(vertices / 2) - 1;
  while (greatestCommonDivisor(vertices, step) !== 1) step -= 1;
  const ring = Array.from({ length: vertices }, (_, i): [number, number] => {
    const t = (2 * Math.PI * ((i * step) % vertices)) / vertices;
    return [lon + radius * Math.cos(t), lat + radius * Math.sin(t)];
  });
  const [first] = ring;
  return first ? [...ring, first] : [];
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}
