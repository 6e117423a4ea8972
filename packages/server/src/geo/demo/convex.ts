import { distance, dot, left, lerp, type Pt, scale, signedArea, sub, unit } from "./planar.js";

/**
 * What an edge of a lot or block lies on: a street's right-of-way line (its index in the street list) or
 * `LOT_LINE` (between two lots, or a block's rear line).
 */
export type EdgeTag = number;
export const LOT_LINE: EdgeTag = -1;

/** A vertex and the tag of the edge that leaves it. */
export interface TaggedVertex {
  p: Pt;
  tag: EdgeTag;
}

/** A convex polygon whose edges remember what they lie on (see `EdgeTag`). */
export type TaggedPolygon = TaggedVertex[];

/** The points `p` with `dot(normal, p) >= offset`; its boundary gets `tag`. */
export interface HalfPlane {
  normal: Pt;
  offset: number;
  tag: EdgeTag;
}

/**
 * The half-plane on the left of the line `origin + t·dir` (unit `dir`), `gap` metres away from it: a block's
 * side of a street, keeping clear of half its right-of-way.
 */
export function leftOf(origin: Pt, dir: Pt, gap: number, tag: EdgeTag): HalfPlane {
  const normal = left(dir);
  return { normal, offset: dot(normal, origin) + gap, tag };
}

/** The same line, the other side. */
export function rightOf(origin: Pt, dir: Pt, gap: number, tag: EdgeTag): HalfPlane {
  const normal = scale(left(dir), -1);
  return { normal, offset: dot(normal, origin) + gap, tag };
}

/** Sutherland–Hodgman: a convex polygon cut by one half-plane, edges keeping their tags. */
export function clip(polygon: TaggedPolygon, plane: HalfPlane): TaggedPolygon {
  const out: TaggedPolygon = [];
  const [nx, ny] = plane.normal;
  for (let i = 0; i < polygon.length; i++) {
    const current = polygon[i] as TaggedVertex;
    const next = polygon[(i + 1) % polygon.length] as TaggedVertex;
    const dc = nx * current.p[0] + ny * current.p[1] - plane.offset;
    const dn = nx * next.p[0] + ny * next.p[1] - plane.offset;
    if (dc >= 0) {
      out.push(current);
      if (dn < 0) out.push({ p: lerp(current.p, next.p, dc / (dc - dn)), tag: plane.tag });
    } else if (dn >= 0) {
      out.push({ p: lerp(current.p, next.p, dc / (dc - dn)), tag: current.tag });
    }
  }
  return tidy(out);
}

export function clipAll(polygon: TaggedPolygon, planes: readonly HalfPlane[]): TaggedPolygon {
  let result = polygon;
  for (const plane of planes) {
    if (result.length === 0) break;
    result = clip(result, plane);
  }
  return result;
}

/** Drops vertices that repeat the next one (keeping the later's tag) and polygons with no area left. */
function tidy(polygon: TaggedPolygon): TaggedPolygon {
  const out = polygon.filter((v, i) => distance(v.p, (polygon[(i + 1) % polygon.length] as TaggedVertex).p) > 1e-9);
  return out.length >= 3 && Math.abs(signedArea(points(out))) > 1e-6 ? out : [];
}

export const points = (polygon: TaggedPolygon): Pt[] => polygon.map((v) => v.p);

/** A square tagged `LOT_LINE`, large enough to hold any neighbourhood, for carving blocks from. */
export function bigSquare(half = 1e5): TaggedPolygon {
  return [
    { p: [-half, -half], tag: LOT_LINE },
    { p: [half, -half], tag: LOT_LINE },
    { p: [half, half], tag: LOT_LINE },
    { p: [-half, half], tag: LOT_LINE },
  ];
}

/** Total length of the polygon's edges that carry `tag`. */
export function taggedLength(polygon: TaggedPolygon, tag: EdgeTag): number {
  let sum = 0;
  polygon.forEach((v, i) => {
    if (v.tag === tag) sum += distance(v.p, (polygon[(i + 1) % polygon.length] as TaggedVertex).p);
  });
  return sum;
}

/** `normal·p >= offset` for each edge of a convex polygon, moved inwards by `margin(tag)`. */
export function insetPlanes(polygon: TaggedPolygon, margin: (tag: EdgeTag) => number): HalfPlane[] {
  const orientation = Math.sign(signedArea(points(polygon)));
  return polygon.map(({ p: a, tag }, i) => {
    const b = (polygon[(i + 1) % polygon.length] as TaggedVertex).p;
    const normal = scale(unit(left(sub(b, a))), orientation);
    return { normal, offset: dot(normal, a) + margin(tag), tag };
  });
}

/** True when `[x, y]` satisfies every half-plane. */
export function within(planes: readonly HalfPlane[], x: number, y: number): boolean {
  for (let i = 0; i < planes.length; i++) {
    const plane = planes[i] as HalfPlane;
    if (plane.normal[0] * x + plane.normal[1] * y < plane.offset) return false;
  }
  return true;
}

/**
 * True when every point lies inside the convex polygon and at least `margin(tag)` metres from each edge line:
 * with a convex polygon that puts the whole footprint built on those points inside, clear of each edge.
 */
export function fitsInside(shape: readonly Pt[], polygon: TaggedPolygon, margin: (tag: EdgeTag) => number): boolean {
  const planes = insetPlanes(polygon, margin);
  return shape.every((p) => within(planes, p[0], p[1]));
}
