import type { Area, Position } from "../types.js";
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
  const [small, large] = vertexCount(a) <= vertexCount(b) ? [a, b] : [b, a];
  return boundariesMeet(small, large) || anyPartInside(small, large) || anyPartInside(large, small);
}

/** Whether an edge of `small` meets an edge of `large`; only `large`'s edges within `small`'s box are tried. */
function boundariesMeet(small: Area, large: Area): boolean {
  const edges = edgesOf(small);
  const box = boxOfEdges(edges);
  for (const polygon of polygonsOf(large)) {
    for (const ring of polygon) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const p = pair(ring[i] as Position);
        const q = pair(ring[i + 1] as Position);
        if (Math.max(p[0], q[0]) < box[0] || Math.min(p[0], q[0]) > box[2]) continue;
        if (Math.max(p[1], q[1]) < box[1] || Math.min(p[1], q[1]) > box[3]) continue;
        for (const [a, b] of edges) if (segmentsMeet(a, b, p, q)) return true;
      }
    }
  }
  return false;
}

function edgesOf(area: Area): Array<[Pair, Pair]> {
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

/** Whether the first vertex of some part of `inner` lies in `outer` (called once no boundaries meet). */
function anyPartInside(inner: Area, outer: Area): boolean {
  for (const polygon of polygonsOf(inner)) {
    const first = polygon[0]?.[0];
    if (first && insideAway(pair(first), outer)) return true;
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
