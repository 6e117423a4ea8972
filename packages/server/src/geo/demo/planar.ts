/**
 * Plane geometry in metres for the generator. Everything is built in a flat frame around the neighbourhood's
 * centre (x east, y north, before the plat's rotation) and projected to longitude/latitude only at the end, so
 * the guarantees below (convex lots, shared lot lines, set-backs) are exact planar facts rather than hopes.
 */

/** A point in metres. */
export type Pt = readonly [number, number];

export const add = (a: Pt, b: Pt): Pt => [a[0] + b[0], a[1] + b[1]];
export const sub = (a: Pt, b: Pt): Pt => [a[0] - b[0], a[1] - b[1]];
export const scale = (a: Pt, k: number): Pt => [a[0] * k, a[1] * k];
export const dot = (a: Pt, b: Pt): number => a[0] * b[0] + a[1] * b[1];
export const cross = (a: Pt, b: Pt): number => a[0] * b[1] - a[1] * b[0];
export const length = (a: Pt): number => Math.sqrt(a[0] * a[0] + a[1] * a[1]);
export const distance = (a: Pt, b: Pt): number => length([a[0] - b[0], a[1] - b[1]]);
/** `a` turned a quarter to the left. */
export const left = (a: Pt): Pt => [-a[1], a[0]];
export const lerp = (a: Pt, b: Pt, t: number): Pt => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
export const unit = (a: Pt): Pt => scale(a, 1 / length(a));
export const fromAngle = (radians: number): Pt => [Math.cos(radians), Math.sin(radians)];

/** Signed area in square metres: positive when the ring runs counter-clockwise. The ring is not closed. */
export function signedArea(ring: readonly Pt[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i] as Pt;
    const b = ring[(i + 1) % ring.length] as Pt;
    sum += a[0] * b[1] - a[1] * b[0];
  }
  return sum / 2;
}

/** The ring running counter-clockwise. */
export function counterClockwise(ring: readonly Pt[]): Pt[] {
  return signedArea(ring) < 0 ? [...ring].reverse() : [...ring];
}

/** Where the lines `p + s·d` and `q + t·e` meet (they must not be parallel). */
export function intersectLines(p: Pt, d: Pt, q: Pt, e: Pt): Pt {
  const s = cross(sub(q, p), e) / cross(d, e);
  return add(p, scale(d, s));
}

/** The smallest and largest of `dot(axis, p)` over the points. */
export function extent(points: readonly Pt[], axis: Pt): [number, number] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < points.length; i++) {
    const p = points[i] as Pt;
    const value = axis[0] * p[0] + axis[1] * p[1];
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return [min, max];
}

/** The largest distance between two of the points. */
export function diameter(points: readonly Pt[]): number {
  let max = 0;
  for (const a of points) for (const b of points) max = Math.max(max, distance(a, b));
  return max;
}
