import type { Area, BBox, Position } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import {
  type EdgeIndex,
  edgeCount,
  INDEXED_FROM_EDGES,
  type IndexedEdge,
  indexedEdges,
  indexedEdgesWhenMetAgain,
} from "./indexed-edges.js";
import { orientation } from "./orientation.js";
import { polygonsOf, vertexCount } from "./positions.js";
import type { Pair } from "./read-polygons.js";
import { segmentsMeet } from "./segments-meet.js";

/**
 * Whether two areas share at least one point, touching included, with edges straight in longitude/latitude:
 * turf's `booleanIntersects` for polygons, with exact predicates and in time linear in the larger area. A parcel
 * meeting a flood zone of ten thousand vertices tests the zone's edges against the parcel's box, the few left
 * against the parcel's edges, then one vertex of each part for containment.
 *
 * Why that suffices: when no boundaries meet, each part of one area lies wholly inside or wholly outside the
 * other (a part is connected), so one vertex of it decides.
 *
 * An area of many edges is indexed when it is compared (against an area of few edges, when it is compared again)
 * and keeps its index while it lives (`indexed-edges.ts`): a lot met by the footprints around it, or a zone kept
 * parsed between orders, then costs each comparison the edges near the other area instead of a walk of all of its own.
 *
 * @example
 * areasMeet(parcel, floodZone); //= true when any part of the parcel is in the zone or on its edge
 */
export function areasMeet(a: Area, b: Area): boolean {
  return relateAreas(a, b) !== "apart";
}

/**
 * How `inner` lies against `outer`: `apart` when they share no point, `within` when `outer` covers all of `inner`
 * with no boundary meeting, `crossing` otherwise (boundaries meet or touch, or a part or hole of one lies in the
 * other) — only then does the overlap need clipping to be known. Exact and linear in the larger area, like
 * {@link areasMeet}. A caller that has the areas' boxes passes them, so that they are not found again.
 *
 * Why `within` is right: when no boundaries meet, every ring of `outer` lies wholly inside or wholly outside
 * `inner`; if none lies inside, `outer`'s boundary stays out of `inner`, so each part of `inner` is covered or
 * not as its first vertex is.
 *
 * @example
 * relateAreas(shed, lot); //= "within": the shed's whole area is on the lot
 */
export function relateAreas(
  inner: Area,
  outer: Area,
  boxes?: { inner: BBox; outer: BBox },
): "apart" | "within" | "crossing" {
  // Against an area of few edges, a large one is indexed only once it is met again: most are met once.
  const index =
    Math.min(edgeCount(inner), edgeCount(outer)) <= INDEXED_FROM_EDGES ? indexedEdgesWhenMetAgain : indexedEdges;
  const innerIndex = index(inner);
  const outerIndex = index(outer);
  const innerBox = boxes?.inner ?? innerIndex?.box ?? bboxOf(inner);
  const outerBox = boxes?.outer ?? outerIndex?.box ?? bboxOf(outer);
  if (!bboxesMeet(innerBox, outerBox)) return "apart";
  const meet =
    vertexCount(inner) <= vertexCount(outer)
      ? boundariesMeet(inner, innerBox, outer, outerIndex)
      : boundariesMeet(outer, outerBox, inner, innerIndex);
  if (meet) return "crossing";
  const innerParts = partsInside(inner, { area: outer, box: outerBox, index: outerIndex });
  const outerRingInside = anyRingInside(outer, { area: inner, box: innerBox, index: innerIndex });
  if (innerParts === 0 && !outerRingInside) return "apart";
  return innerParts === polygonsOf(inner).length && !outerRingInside ? "within" : "crossing";
}

/**
 * Whether an edge of `small` meets an edge of `large`. An indexed `large` is asked, for each of `small`'s edges
 * within its box, for its edges near that one (gathered into one array, reused edge after edge). Otherwise both
 * are small, and each of `large`'s edges within `small`'s box is tried against `small`'s edges, with nothing
 * allocated an edge: this runs for every candidate lot of every imported building.
 */
function boundariesMeet(small: Area, box: BBox, large: Area, index: EdgeIndex | undefined): boolean {
  if (index) {
    const near: IndexedEdge[] = [];
    return someEdgeWithin(small, index.box, (p, q, minX, minY, maxX, maxY) => {
      const count = index.strips.meeting(minX, minY, maxX, maxY, near);
      for (let i = 0; i < count; i++) {
        const { a, b } = near[i] as IndexedEdge;
        if (segmentsMeet(a, b, p, q)) return true;
      }
      return false;
    });
  }
  return someEdgeWithin(large, box, (p, q, minX, minY, maxX, maxY) =>
    someEdgeMeets(small, p, q, minX, minY, maxX, maxY),
  );
}

/** Whether `test` holds for some edge p–q of `area` whose box, (minX, minY) to (maxX, maxY), meets `box`. */
function someEdgeWithin(
  area: Area,
  box: BBox,
  test: (p: Pair, q: Pair, minX: number, minY: number, maxX: number, maxY: number) => boolean,
): boolean {
  const [left, bottom, right, top] = box;
  for (const polygon of polygonsOf(area)) {
    for (const ring of polygon) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const p = pair(ring[i] as Position);
        const q = pair(ring[i + 1] as Position);
        const minX = p[0] < q[0] ? p[0] : q[0];
        const maxX = p[0] < q[0] ? q[0] : p[0];
        if (maxX < left || minX > right) continue;
        const minY = p[1] < q[1] ? p[1] : q[1];
        const maxY = p[1] < q[1] ? q[1] : p[1];
        if (maxY < bottom || minY > top) continue;
        if (test(p, q, minX, minY, maxX, maxY)) return true;
      }
    }
  }
  return false;
}

/** Whether an edge of `area` meets the segment p–q, whose box runs from (minX, minY) to (maxX, maxY). */
function someEdgeMeets(area: Area, p: Pair, q: Pair, minX: number, minY: number, maxX: number, maxY: number): boolean {
  for (const polygon of polygonsOf(area)) {
    for (const ring of polygon) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const a = pair(ring[i] as Position);
        const b = pair(ring[i + 1] as Position);
        if (edgeMeets(a, b, minX, minY, maxX, maxY) && segmentsMeet(a, b, p, q)) return true;
      }
    }
  }
  return false;
}

/** Whether the box of the edge a–b meets the box from (minX, minY) to (maxX, maxY). */
function edgeMeets(a: Pair, b: Pair, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return !(
    Math.max(a[0], b[0]) < minX ||
    Math.min(a[0], b[0]) > maxX ||
    Math.max(a[1], b[1]) < minY ||
    Math.min(a[1], b[1]) > maxY
  );
}

/** Every edge of `area`'s rings, as the pairs of its ends. */
export function edgesOf(area: Area): Array<[Pair, Pair]> {
  const edges: Array<[Pair, Pair]> = [];
  for (const polygon of polygonsOf(area)) {
    for (const ring of polygon) {
      for (let i = 0; i + 1 < ring.length; i++) edges.push([pair(ring[i] as Position), pair(ring[i + 1] as Position)]);
    }
  }
  return edges;
}

/** A stored position read as its longitude and latitude, without a copy (they are checked at import). */
function pair(position: Position): Pair {
  return position as Pair;
}

/** An area that points are tested against, with its box and, when it has many edges, their index. */
interface Container {
  area: Area;
  box: BBox;
  index: EdgeIndex | undefined;
}

/** How many parts of `inner` have their first vertex in `outer` (called once no boundaries meet). */
function partsInside(inner: Area, outer: Container): number {
  let count = 0;
  for (const polygon of polygonsOf(inner)) {
    const first = polygon[0]?.[0];
    if (first && insideAway(pair(first), outer)) count += 1;
  }
  return count;
}

/** Whether the first vertex of some ring of `area`, exterior or hole, lies in `other` (no boundaries meeting). */
function anyRingInside(area: Area, other: Container): boolean {
  for (const polygon of polygonsOf(area)) {
    for (const ring of polygon) {
      const first = ring[0];
      if (first && insideAway(pair(first), other)) return true;
    }
  }
  return false;
}

/**
 * Whether `point`, known to lie on no edge of the area, is inside it: it crosses an odd number of a polygon's
 * rings (its exterior and holes) on the way east. An edge counts when it spans the point's latitude half-open, and
 * the side is decided by the exact orientation, so no crossing is lost to rounding. A point beyond the box is
 * outside without a walk; an indexed area offers only the edges in the strip of the point's latitude, which holds
 * every edge spanning it.
 */
function insideAway(point: Pair, { area, box, index }: Container): boolean {
  if (point[0] < box[0] || point[0] > box[2] || point[1] < box[1] || point[1] > box[3]) return false;
  if (index) {
    const crossings = new Uint8Array(index.polygons);
    const { edges } = index.strips;
    for (const at of index.strips.atLatitude(point[1])) {
      const { a, b, polygon } = edges[at] as IndexedEdge;
      if (crosses(a, b, point)) crossings[polygon] = 1 - (crossings[polygon] ?? 0);
    }
    return crossings.includes(1);
  }
  for (const polygon of polygonsOf(area)) {
    let inside = false;
    for (const ring of polygon) {
      for (let i = 0; i + 1 < ring.length; i++) {
        if (crosses(pair(ring[i] as Position), pair(ring[i + 1] as Position), point)) inside = !inside;
      }
    }
    if (inside) return true;
  }
  return false;
}

/** Whether the edge p–q crosses the ray east of `point`: it spans the point's latitude, half-open, right of it. */
function crosses(p: Pair, q: Pair, point: Pair): boolean {
  if (p[1] > point[1] === q[1] > point[1]) return false;
  const side = orientation(p, q, point);
  return q[1] > p[1] ? side > 0 : side < 0;
}
