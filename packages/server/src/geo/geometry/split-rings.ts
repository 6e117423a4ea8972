import type { Position } from "../types.js";

/** A ring without its closing position: exteriors counter-clockwise, holes clockwise (RFC 7946). */
export type OpenRing = Position[];

/** The rings of each side of a cut: below the line (smaller coordinate), then above it. */
export type SplitRings = [below: OpenRing[], above: OpenRing[]];

/** Where a ring crosses the cut: the piece of ring that leaves its side there, or the piece that enters it. */
interface Crossing {
  along: number;
  leaving: boolean;
  piece: Piece;
}

/** A run of a ring on one side of the cut, from the crossing where it enters that side to where it leaves it. */
interface Piece {
  positions: Position[];
  next: Piece | undefined;
}

/**
 * The rings of one or more valid polygons split by the line where coordinate `axis` (0 longitude, 1 latitude)
 * equals `at`: each side's rings bound exactly what the polygons cover on that side, are valid and keep the
 * orientation (so a hole stays a hole and each side can be split again), and both sides share the positions made on
 * the line. Linear in the positions, but for sorting the crossings.
 *
 * A ring wholly on one side goes there as it is. A ring across the line is cut into pieces at its crossings, and each
 * side's pieces are joined along the line: with the interior on the left of every ring, a piece leaving the side at
 * one crossing continues, along the line, to the next crossing in the direction that keeps the side on its left
 * (the polygons' inside and outside alternate along the line), where another piece enters. So a hole cut by the line
 * becomes part of an exterior, and runs along the line appear only where the polygons cover it. Unlike
 * Sutherland–Hodgman's clip, nothing needs cleaning afterwards.
 *
 * Undefined when a position lies on the line itself: the caller moves the line (a cut may go anywhere near the
 * middle). Throws when the crossings do not alternate, as only invalid rings (crossing each other, or holes wound
 * like exteriors) make them.
 */
export function splitRings(rings: readonly OpenRing[], axis: 0 | 1, at: number): SplitRings | undefined {
  const sides: SplitRings = [[], []];
  const crossings: [Crossing[], Crossing[]] = [[], []];
  for (const ring of rings) {
    const placed = sideOfRing(ring, axis, at);
    if (placed === "on the line") return undefined;
    if (placed === "both") cutRing(ring, axis, at, crossings);
    else sides[placed].push(ring);
  }
  for (const side of [0, 1] as const) {
    // A loop, not a spread: a coastline cut by one line can make more rings than a call takes arguments.
    for (const ring of joinAlongLine(crossings[side], axis, side)) sides[side].push(ring);
  }
  return sides;
}

/** The side the ring lies on (0 below, 1 above), or whether it crosses the line or touches it. */
function sideOfRing(ring: OpenRing, axis: 0 | 1, at: number): 0 | 1 | "both" | "on the line" {
  let below = false;
  let above = false;
  for (let i = 0; i < ring.length; i++) {
    const value = (ring[i] as Position)[axis] as number;
    if (value < at) below = true;
    else if (value > at) above = true;
    else return "on the line";
  }
  return below && above ? "both" : below ? 0 : 1;
}

/**
 * Cuts a ring crossing the line into pieces, each recorded twice per crossing: leaving one side, entering the other.
 * The walk starts just after a crossing so that every piece is whole.
 */
function cutRing(ring: OpenRing, axis: 0 | 1, at: number, crossings: [Crossing[], Crossing[]]): void {
  const n = ring.length;
  const sideAt = (i: number): 0 | 1 => (((ring[i % n] as Position)[axis] as number) < at ? 0 : 1);
  let start = 1;
  while (sideAt(start) === sideAt(start - 1)) start++;
  const first = crossingPoint(ring[start - 1] as Position, ring[start % n] as Position, axis, at);
  let side = sideAt(start);
  let piece: Piece = { positions: [first], next: undefined };
  crossings[side].push({ along: along(first, axis), leaving: false, piece });
  for (let i = start; i < start + n; i++) {
    const position = ring[i % n] as Position;
    piece.positions.push(position);
    const nextSide = sideAt(i + 1);
    if (nextSide === side) continue;
    const point = i + 1 === start + n ? first : crossingPoint(position, ring[(i + 1) % n] as Position, axis, at);
    piece.positions.push(point);
    crossings[side].push({ along: along(point, axis), leaving: true, piece });
    if (point === first) break;
    side = nextSide;
    piece = { positions: [point], next: undefined };
    crossings[side].push({ along: along(point, axis), leaving: false, piece });
  }
}

/**
 * One side's pieces joined into rings. Walking along the line with the side on the left, the crossings alternate:
 * a piece leaves, the line runs inside the polygons, a piece enters. Each leaving piece continues into the next.
 */
function joinAlongLine(crossings: Crossing[], axis: 0 | 1, side: 0 | 1): OpenRing[] {
  // With the side on its left, the walk goes north along a meridian cut for the west side, west along a parallel
  // cut for the south side, and the other way for the other side.
  const ascending = (axis === 0) === (side === 0);
  crossings.sort(ascending ? (a, b) => a.along - b.along : (a, b) => b.along - a.along);
  for (let i = 0; i < crossings.length; i += 2) {
    const leaving = crossings[i] as Crossing;
    const entering = crossings[i + 1];
    if (!leaving.leaving || entering === undefined || entering.leaving || entering.along === leaving.along) {
      throw new Error("the rings' crossings of the cut do not alternate: the rings are not valid");
    }
    leaving.piece.next = entering.piece;
  }
  const rings: OpenRing[] = [];
  const joined = new Set<Piece>();
  for (const { piece: start } of crossings) {
    if (joined.has(start)) continue;
    const ring: Position[] = [];
    for (let piece: Piece | undefined = start; piece !== undefined && !joined.has(piece); piece = piece.next) {
      joined.add(piece);
      for (const position of piece.positions) ring.push(position);
    }
    rings.push(ring);
  }
  return rings;
}

/** The position along the line of a point on it: the other coordinate. */
function along(point: Position, axis: 0 | 1): number {
  return point[axis === 0 ? 1 : 0] as number;
}

/**
 * Where the edge between `a` and `b` crosses the line, computed from the end below it whichever way the edge runs,
 * so that an edge shared by two rings is cut at the same point for both.
 */
function crossingPoint(a: Position, b: Position, axis: 0 | 1, at: number): Position {
  const [low, high] = (a[axis] as number) < at ? [a, b] : [b, a];
  const other = axis === 0 ? 1 : 0;
  const t = (at - (low[axis] as number)) / ((high[axis] as number) - (low[axis] as number));
  const value = (low[other] as number) + t * ((high[other] as number) - (low[other] as number));
  return axis === 0 ? [at, value] : [value, at];
}
