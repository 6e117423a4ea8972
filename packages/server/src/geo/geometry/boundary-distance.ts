import type { Position } from "../types.js";
import { latOf, lonOf } from "./positions.js";
import {
  type Cartesian,
  GEODESIC,
  MEAN_RADIUS_M,
  SMALLEST_RADIUS_OF_CURVATURE_M,
  toCartesian,
  WGS84,
} from "./wgs84.js";

/** One edge of a ring or line, with what the search needs precomputed. */
interface Edge {
  a: Position;
  b: Position;
  ca: Cartesian;
  cb: Cartesian;
  /** How far, at most, the geodesic from a to b strays from the straight chord between them (metres). */
  sagitta: number;
}

/** The edges of some rings or lines, ready for {@link distanceToEdges}. A one-position line is one point. */
export type Edges = readonly Edge[];

/** Slack for rounding in the Cartesian coordinates (about 6.4e6 m, so about 1e-9 m per operation). */
const ROUNDING_M = 1e-6;

/** The along-edge step below which the search for the nearest point of an edge stops (metres). */
const CONVERGED_M = 1e-4;

/** The edges between consecutive positions of each line or ring, with their Cartesian ends and sagitta bounds. */
export function edgesOf(lines: readonly Position[][]): Edges {
  const edges: Edge[] = [];
  for (const line of lines) {
    const cartesian = line.map((position) => toCartesian(lonOf(position), latOf(position)));
    const count = Math.max(line.length - 1, line.length === 1 ? 1 : 0);
    for (let i = 0; i < count; i++) {
      const a = line[i];
      const b = line[i + 1] ?? a;
      const ca = cartesian[i];
      const cb = cartesian[i + 1] ?? ca;
      if (a === undefined || b === undefined || ca === undefined || cb === undefined) continue;
      const chord = Math.hypot(cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]);
      // On a sphere of radius R the arc over a chord c rises R − √(R² − c²/4) ≈ c²/(8R) above it, and never more
      // than c²/(4R). Taking R as the ellipsoid's smallest radius of curvature keeps that factor of 2 as margin
      // for the ellipsoid (whose geodesics are not quite plane curves).
      edges.push({ a, b, ca, cb, sagitta: (chord * chord) / (4 * SMALLEST_RADIUS_OF_CURVATURE_M) + ROUNDING_M });
    }
  }
  return edges;
}

/**
 * The geodesic distance in metres from `point` to the nearest point of any edge, each edge being the geodesic
 * between its ends on WGS 84; `Infinity` when there are no edges.
 *
 * Ellipsoidal throughout (tested against a brute-force search to well under a millimetre), yet cheap for long
 * boundaries: the straight-line (chord) distance through the earth from the point to an edge's chord, less the
 * edge's sagitta, is a lower bound of the geodesic distance to that edge. The edge with the smallest bound is measured first; any other edge is measured only if its bound is below
 * the best distance found, which for a property-scale boundary is one or two edges.
 */
export function distanceToEdges(point: Position, edges: Edges): number {
  if (edges.length === 0) return Number.POSITIVE_INFINITY;
  const p = toCartesian(lonOf(point), latOf(point));
  const bounds = edges.map((edge) => Math.max(0, chordToSegment(p, edge.ca, edge.cb) - edge.sagitta));
  let first = 0;
  bounds.forEach((bound, index) => {
    if (bound < (bounds[first] ?? Number.POSITIVE_INFINITY)) first = index;
  });
  let best = Number.POSITIVE_INFINITY;
  const measure = (index: number) => {
    const edge = edges[index];
    if (edge !== undefined) best = Math.min(best, toGeodesicEdge(point, p, edge));
  };
  measure(first);
  bounds.forEach((bound, index) => {
    if (index !== first && bound < best) measure(index);
  });
  return best;
}

/** Straight-line distance from p to the segment between a and b, all Cartesian. */
function chordToSegment(p: Cartesian, a: Cartesian, b: Cartesian): number {
  const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]] as const;
  const ap = [p[0] - a[0], p[1] - a[1], p[2] - a[2]] as const;
  const length2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
  const t = length2 === 0 ? 0 : clamp((ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / length2, 0, 1);
  return Math.hypot(ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]);
}

/**
 * Distance from a point to the geodesic edge a–b: a search along the edge for the foot of the perpendicular.
 * From a trial foot X it measures the geodesic X→P (length d, leaving at angle Δ to the edge) and moves along the
 * edge by the spherical along-track distance R·atan2(sin(d/R)·cos Δ, cos(d/R)) — exact on a sphere, so on the
 * ellipsoid it converges in two or three steps. The answer is the least distance met, ends included.
 */
function toGeodesicEdge(point: Position, p: Cartesian, edge: Edge): number {
  const lat = latOf(point);
  const lon = lonOf(point);
  const distanceFrom = (fromLat: number, fromLon: number) =>
    WGS84.Inverse(fromLat, fromLon, lat, lon, GEODESIC.DISTANCE | GEODESIC.AZIMUTH);
  let best = Math.min(
    distanceFrom(latOf(edge.a), lonOf(edge.a)).s12 ?? Number.POSITIVE_INFINITY,
    distanceFrom(latOf(edge.b), lonOf(edge.b)).s12 ?? Number.POSITIVE_INFINITY,
  );
  const line = WGS84.InverseLine(latOf(edge.a), lonOf(edge.a), latOf(edge.b), lonOf(edge.b));
  const length = line.s13;
  const { ca, cb } = edge;
  const ab = [cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]] as const;
  const length2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
  // An edge too short for its Cartesian ends to differ (nanometres) is its ends, already measured.
  if (!(length > 0) || length2 === 0) return best;
  const along = ((p[0] - ca[0]) * ab[0] + (p[1] - ca[1]) * ab[1] + (p[2] - ca[2]) * ab[2]) / length2;
  let s = clamp(along, 0, 1) * length;
  for (let step = 0; step < 20; step++) {
    const foot = line.Position(s, GEODESIC.LATITUDE | GEODESIC.LONGITUDE | GEODESIC.AZIMUTH);
    const toPoint = distanceFrom(foot.lat2 ?? Number.NaN, foot.lon2 ?? Number.NaN);
    const d = toPoint.s12 ?? Number.NaN;
    best = Math.min(best, d);
    if (!(d > 0)) break;
    const angle = (((toPoint.azi1 ?? 0) - (foot.azi2 ?? 0)) * Math.PI) / 180;
    const sigma = d / MEAN_RADIUS_M;
    const next = clamp(s + MEAN_RADIUS_M * Math.atan2(Math.sin(sigma) * Math.cos(angle), Math.cos(sigma)), 0, length);
    if (Math.abs(next - s) < CONVERGED_M) break;
    s = next;
  }
  return best;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
