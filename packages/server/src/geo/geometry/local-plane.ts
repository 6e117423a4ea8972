import type { Area, Position } from "../types.js";
import { latOf, lonOf, polygonsOf } from "./positions.js";
import { type Cartesian, cartesianInto, toCartesian } from "./wgs84.js";

/** An area's rings on a {@link LocalPlane}: each ring as x, y pairs (metres east, north), closing position kept. */
export interface PlanarArea {
  rings: Float64Array[];
  /** minX, minY, maxX, maxY. */
  box: [number, number, number, number];
}

/**
 * The plane tangent to the WGS 84 ellipsoid at `origin`: a position goes to its earth-centred Cartesian point,
 * which is then read in east and north metres from the origin (the "up" part is dropped).
 *
 * Why it may stand in for geodesics near the origin: for two positions within D metres of the origin and s metres
 * apart, (1) the straight chord between them is shorter than the geodesic by at most s³/(24ρ²), ρ ≥ 6,335 km
 * being the ellipsoid's smallest radius of curvature; (2) dropping "up" shortens that chord by the factor cos θ,
 * where θ, the chord's tilt from the plane, is at most D/ρ (the chord is parallel to the surface somewhere between
 * its ends, and the surface turns by at most 1/ρ radians a metre). So the relative error is under
 * (D/ρ)²/2 + s²/(24ρ²): for the exposure search — neighbours up to 3.2 km away, D under 3.5 km — under
 * 2 × 10⁻⁷, or 0.7 mm at 3.2 km; an edge straight in the plane strays from the geodesic edge by far less.
 * `local-plane.test.ts` checks it against GeographicLib on real Cambridge buildings.
 */
export class LocalPlane {
  readonly #origin: Cartesian;
  readonly #east: Cartesian;
  readonly #north: Cartesian;
  /** Where {@link ringArea} puts each position's Cartesian point. */
  readonly #scratch = new Float64Array(3);

  constructor(origin: Position) {
    const phi = (latOf(origin) * Math.PI) / 180;
    const lambda = (lonOf(origin) * Math.PI) / 180;
    this.#origin = toCartesian(lonOf(origin), latOf(origin));
    this.#east = [-Math.sin(lambda), Math.cos(lambda), 0];
    this.#north = [-Math.sin(phi) * Math.cos(lambda), -Math.sin(phi) * Math.sin(lambda), Math.cos(phi)];
  }

  /**
   * A ring's area on this plane, m² (unsigned; its closing position present or not), and how far from the origin
   * its farthest position lies on the plane, m. Nothing is kept: an import measures each area once.
   */
  ringArea(ring: readonly Position[]): { area: number; reach: number } {
    const [ox, oy, oz] = this.#origin;
    const [ex, ey, ez] = this.#east;
    const [nx, ny, nz] = this.#north;
    const p = this.#scratch;
    let twice = 0;
    let farthest = 0;
    let firstX = 0;
    let firstY = 0;
    let lastX = 0;
    let lastY = 0;
    for (let i = 0; i < ring.length; i++) {
      const position = ring[i] as Position;
      cartesianInto(p, 0, lonOf(position), latOf(position));
      const x = ((p[0] as number) - ox) * ex + ((p[1] as number) - oy) * ey + ((p[2] as number) - oz) * ez;
      const y = ((p[0] as number) - ox) * nx + ((p[1] as number) - oy) * ny + ((p[2] as number) - oz) * nz;
      farthest = Math.max(farthest, x * x + y * y);
      if (i === 0) {
        firstX = x;
        firstY = y;
      } else twice += lastX * y - x * lastY;
      lastX = x;
      lastY = y;
    }
    // Back to the first position: nothing when the ring repeats it at the end.
    twice += lastX * firstY - firstX * lastY;
    return { area: Math.abs(twice) / 2, reach: Math.sqrt(farthest) };
  }

  /** A position on this plane: metres east and north of the origin. */
  point(lon: number, lat: number): [number, number] {
    const p = this.#scratch;
    cartesianInto(p, 0, lon, lat);
    const [dx, dy, dz] = [
      (p[0] as number) - this.#origin[0],
      (p[1] as number) - this.#origin[1],
      (p[2] as number) - this.#origin[2],
    ];
    return [
      dx * this.#east[0] + dy * this.#east[1] + dz * this.#east[2],
      dx * this.#north[0] + dy * this.#north[1] + dz * this.#north[2],
    ];
  }

  /** The rings of `area` on this plane, with their box. */
  area(area: Area): PlanarArea {
    const rings: Float64Array[] = [];
    const box: PlanarArea["box"] = [
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    const [ox, oy, oz] = this.#origin;
    const [ex, ey, ez] = this.#east;
    const [nx, ny, nz] = this.#north;
    for (const xyz of cartesianRings(area)) {
      const xy = new Float64Array((xyz.length / 3) * 2);
      for (let i = 0, j = 0; i < xyz.length; i += 3, j += 2) {
        const dx = (xyz[i] ?? 0) - ox;
        const dy = (xyz[i + 1] ?? 0) - oy;
        const dz = (xyz[i + 2] ?? 0) - oz;
        const x = dx * ex + dy * ey + dz * ez;
        const y = dx * nx + dy * ny + dz * nz;
        xy[j] = x;
        xy[j + 1] = y;
        box[0] = Math.min(box[0], x);
        box[1] = Math.min(box[1], y);
        box[2] = Math.max(box[2], x);
        box[3] = Math.max(box[3], y);
      }
      rings.push(xy);
    }
    return { rings, box };
  }
}

/**
 * Each area's rings as earth-centred Cartesian points (x, y, z in turn), kept as long as the area is: the
 * footprints of an area stay parsed between orders (`geo/store/parsed-shapes.ts`), and each order puts the same
 * neighbours on its own plane. The trigonometry is done once per footprint instead of once per order.
 */
const cartesians = new WeakMap<Area, Float64Array[]>();

function cartesianRings(area: Area): Float64Array[] {
  let rings = cartesians.get(area);
  if (!rings) {
    rings = polygonsOf(area)
      .flat()
      .map((ring) => {
        const xyz = new Float64Array(ring.length * 3);
        for (const [i, position] of ring.entries()) cartesianInto(xyz, i * 3, lonOf(position), latOf(position));
        return xyz;
      });
    cartesians.set(area, rings);
  }
  return rings;
}

/** The gap between two areas' boxes, metres: a lower bound of their distance (0 when the boxes meet). */
export function boxGap(a: PlanarArea, b: PlanarArea): number {
  const dx = Math.max(0, a.box[0] - b.box[2], b.box[0] - a.box[2]);
  const dy = Math.max(0, a.box[1] - b.box[3], b.box[1] - a.box[3]);
  return Math.hypot(dx, dy);
}

/**
 * The least distance between the boundaries of two disjoint areas on one plane: from every vertex of either to
 * every edge of the other, which is where the nearest points of two disjoint polygons lie. The caller decides
 * first whether they intersect (then the distance is 0), with the exact predicate.
 */
export function distanceBetweenBoundaries(a: PlanarArea, b: PlanarArea): number {
  return Math.sqrt(Math.min(leastSquared(a, b), leastSquared(b, a)));
}

function leastSquared(from: PlanarArea, to: PlanarArea): number {
  let best = Number.POSITIVE_INFINITY;
  for (const vertices of from.rings) {
    for (let v = 0; v < vertices.length; v += 2) {
      const px = vertices[v] ?? 0;
      const py = vertices[v + 1] ?? 0;
      for (const edges of to.rings) {
        for (let e = 0; e + 3 < edges.length; e += 2) {
          best = Math.min(
            best,
            squaredToSegment(px, py, edges[e] ?? 0, edges[e + 1] ?? 0, edges[e + 2] ?? 0, edges[e + 3] ?? 0),
          );
        }
      }
    }
  }
  return best;
}

function squaredToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 > 0 ? Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / length2)) : 0;
  const ex = px - ax - t * dx;
  const ey = py - ay - t * dy;
  return ex * ex + ey * ey;
}
