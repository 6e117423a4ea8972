import type { Area, Position } from "../types.js";
import { EdgeStrips } from "./edge-strips.js";
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
 * {@link areasMeet}.
 *
 * Why `within` is right: when no boundaries meet, every ring of `outer` lies wholly inside or wholly outside
 * `inner`; if none lies inside, `outer`'s boundary stays out of `inner`, so each part of `inner` is covered or
 * not as its first vertex is.
 *
 * @example
 * relateAreas(shed, lot); //= "within": the shed's whole area is on the lot
 */
export function relateAreas(inner: Area, outer: Area): "apart" | "within" | "crossing" {
  const [small, large] = vertexCount(inner) <= vertexCount(outer) ? [inner, outer] : [outer, inner];
  if (boundariesMeet(small, large)) return "crossing";
  const innerParts = partsInside(inner, outer);
  const outerRingInside = anyRingInside(outer, inner);
  if (innerParts === 0 && !outerRingInside) return "apart";
  return innerParts === polygonsOf(inner).length && !outerRingInside ? "within" : "crossing";
}

/** A small area of at most this many edges, a house's footprint, is scanned whole: cheaper than indexing it. */
const SCANNED_AT_MOST = 16;

/**
 * Whether an edge of `small` meets an edge of `large`: only `large`'s edges within `small`'s box are tried, each
 * against `small`'s edges near it.
 */
function boundariesMeet(small: Area, large: Area): boolean {
  const edges = edgesOf(small);
  const box = boxOfEdges(edges);
  let near: EdgeStrips<{ a: Pair; b: Pair }> | undefined;
  for (const polygon of polygonsOf(large)) {
    for (const ring of polygon) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const p = pair(ring[i] as Position);
        const q = pair(ring[i + 1] as Position);
        if (Math.max(p[0], q[0]) < box[0] || Math.min(p[0], q[0]) > box[2]) continue;
        if (Math.max(p[1], q[1]) < box[1] || Math.min(p[1], q[1]) > box[3]) continue;
        const [minX, maxX] = p[0] < q[0] ? [p[0], q[0]] : [q[0], p[0]];
        const [minY, maxY] = p[1] < q[1] ? [p[1], q[1]] : [q[1], p[1]];
        if (edges.length <= SCANNED_AT_MOST) {
          if (edges.some(([a, b]) => edgeMeets(a, b, minX, minY, maxX, maxY) && segmentsMeet(a, b, p, q))) return true;
          continue;
        }
        // Indexed once an edge of `large` comes near: most lots and footprints meet no boundary within the box.
        near ??= new EdgeStrips(edges.map(([a, b]) => ({ a, b })));
        if (near.someMeeting(minX, minY, maxX, maxY, ({ a, b }) => segmentsMeet(a, b, p, q))) return true;
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

function boxOfEdges(edges: ReadonlyArray<[Pair, Pair]>): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [p] of edges) {
    box[0] = Math.min(box[0], p[0]);
    box[1] = Math.min(box[1], p[1]);
    box[2] = Math.max(box[2], p[0]);
    box[3] = Math.max(box[3], p[1]);
  }
  return box;
}

/** A stored position read as its longitude and latitude, without a copy (they are checked at import). */
function pair(position: Position): Pair {
  return position as Pair;
}

/** How many parts of `inner` have their first vertex in `outer` (called once no boundaries meet). */
function partsInside(inner: Area, outer: Area): number {
  let count = 0;
  for (const polygon of polygonsOf(inner)) {
    const first = polygon[0]?.[0];
    if (first && insideAway(pair(first), outer)) count += 1;
  }
  return count;
}

/** Whether the first vertex of some ring of `area`, exterior or hole, lies in `other` (no boundaries meeting). */
function anyRingInside(area: Area, other: Area): boolean {
  for (const polygon of polygonsOf(area)) {
    for (const ring of polygon) {
      const first = ring[0];
      if (first && insideAway(pair(first), other)) return true;
    }
  }
  return false;
}

/**
 * Whether `point`, known to lie on no edge of `area`, is inside it: it crosses an odd number of a polygon's rings
 * (its exterior and holes) on the way east. A ring's edge counts when it spans the point's latitude half-open,
 * and the side is decided by the exact orientation, so no crossing is lost to rounding.
 */
function insideAway(point: Pair, area: Area): boolean {
  for (const polygon of polygonsOf(area)) {
    let inside = false;
    for (const ring of polygon) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const p = pair(ring[i] as Position);
        const q = pair(ring[i + 1] as Position);
        if (p[1] > point[1] === q[1] > point[1]) continue;
        const side = orientation(p, q, point);
        if (q[1] > p[1] ? side > 0 : side < 0) inside = !inside;
      }
    }
    if (inside) return true;
  }
  return false;
}
