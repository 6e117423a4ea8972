import type { Area, BBox, Position } from "../types.js";
import { polygonsOf } from "./positions.js";

/**
 * The polygons of `area` cut down to `box` (Sutherland–Hodgman, ring by ring): inside the box they cover exactly
 * what the area covers, in time linear in its vertices. A cut ring may run along the box's edge and back, so the
 * result is only fit for a polygon-clipping operation (which reads rings by the non-zero rule) with a shape lying
 * strictly inside the box: it spares that operation the thousands of vertices of a flood zone far from a parcel.
 * A polygon whose exterior misses the box is dropped, as is a hole that does.
 */
export function clipToBox(area: Area, box: BBox): Position[][][] {
  const polygons: Position[][][] = [];
  for (const [exterior, ...holes] of polygonsOf(area)) {
    const outer = exterior ? clipRing(exterior, box) : [];
    if (outer.length === 0) continue;
    polygons.push([outer, ...holes.map((hole) => clipRing(hole, box)).filter((hole) => hole.length > 0)]);
  }
  return polygons;
}

/** The four sides of a box as half-planes: a position's signed distance inside each, and where an edge crosses it. */
const SIDES: Array<{ inside: (p: Position, box: BBox) => number; axis: 0 | 1; at: (box: BBox) => number }> = [
  { inside: (p, box) => (p[0] ?? 0) - box[0], axis: 0, at: (box) => box[0] },
  { inside: (p, box) => box[2] - (p[0] ?? 0), axis: 0, at: (box) => box[2] },
  { inside: (p, box) => (p[1] ?? 0) - box[1], axis: 1, at: (box) => box[1] },
  { inside: (p, box) => box[3] - (p[1] ?? 0), axis: 1, at: (box) => box[3] },
];

/** One closed ring clipped to the box, closed again; empty when nothing of it is left. */
function clipRing(ring: readonly Position[], box: BBox): Position[] {
  let positions = ring.slice(0, -1);
  for (const side of SIDES) {
    if (positions.length === 0) break;
    const kept: Position[] = [];
    for (let i = 0; i < positions.length; i++) {
      const current = positions[i] as Position;
      const previous = positions[(i + positions.length - 1) % positions.length] as Position;
      const currentIn = side.inside(current, box) >= 0;
      const previousIn = side.inside(previous, box) >= 0;
      if (currentIn !== previousIn) kept.push(crossing(previous, current, side.axis, side.at(box)));
      if (currentIn) kept.push(current);
    }
    positions = kept;
  }
  return positions.length >= 3 ? [...positions, positions[0] as Position] : [];
}

/** Where the edge from `a` to `b` meets the line where coordinate `axis` equals `value`. */
function crossing(a: Position, b: Position, axis: 0 | 1, value: number): Position {
  const other = axis === 0 ? 1 : 0;
  const t = (value - (a[axis] ?? 0)) / ((b[axis] ?? 0) - (a[axis] ?? 0));
  const along = (a[other] ?? 0) + t * ((b[other] ?? 0) - (a[other] ?? 0));
  return axis === 0 ? [value, along] : [along, value];
}
