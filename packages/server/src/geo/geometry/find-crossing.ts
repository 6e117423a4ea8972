import { orientation } from "./orientation.js";
import type { Pair } from "./read-polygons.js";
import { segmentsMeet } from "./segments-meet.js";

/** Two rings (0-based indexes into the rings given; the same twice when a ring meets itself) that share a point. */
export interface Crossing {
  ring: number;
  other: number;
}

interface Segment {
  ring: number;
  /** Its place in the ring: segment i runs from position i to position i + 1. */
  index: number;
  /** How many segments the ring has. */
  count: number;
  /** The lexicographically smaller end (by longitude, then latitude), where the sweep meets it first. */
  start: Pair;
  end: Pair;
  /** Whether the ring runs from `start` to `end`. */
  forward: boolean;
}

/** A node of the sweep's status: a treap of the segments the sweep line cuts, ordered from bottom to top. */
interface Node {
  segment: Segment;
  priority: number;
  below: Node | undefined;
  above: Node | undefined;
}

/**
 * Whether closed rings cross, touch or overlap themselves or each other anywhere but where consecutive edges of
 * one ring join, found by a Shamos–Hoey sweep in O(n log n): positions are visited in order of longitude, then
 * latitude, and only segments that become neighbours on the sweep line are tested against each other. The first
 * meeting found is answered; none, `undefined`. A position repeated anywhere (a ring revisiting a position, two
 * rings sharing one) is a meeting. Predicates are exact (see {@link orientation}).
 *
 * Rings of `pairwiseAtMost` segments in all or fewer are tested pair by pair instead (tests compare the two ways).
 * Rings must be closed, without immediate repeats and of at least three distinct positions (`cleanRing`).
 */
export function findCrossing(
  rings: readonly Pair[][],
  pairwiseAtMost: number = PAIRWISE_AT_MOST,
): Crossing | undefined {
  const ringSegments = rings.map((ring, r) => segmentsOf(ring, r));
  const count = ringSegments.reduce((sum, segments) => sum + segments.length, 0);
  if (count <= pairwiseAtMost) return pairwiseCrossing(concat(ringSegments));
  const vertices: Array<{ at: Pair; incoming: Segment; outgoing: Segment }> = [];
  for (const [r, ring] of rings.entries()) {
    const segments = ringSegments[r] as Segment[];
    for (const [i, outgoing] of segments.entries()) {
      const incoming = segments[(i + segments.length - 1) % segments.length] as Segment;
      vertices.push({ at: ring[i] as Pair, incoming, outgoing });
    }
  }
  vertices.sort((p, q) => compareLexicographically(p.at, q.at));
  for (let i = 1; i < vertices.length; i++) {
    const [previous, current] = [vertices[i - 1], vertices[i]];
    if (previous && current && compareLexicographically(previous.at, current.at) === 0) {
      return { ring: previous.outgoing.ring, other: current.outgoing.ring };
    }
  }

  let root: Node | undefined;
  for (const { at, incoming, outgoing } of vertices) {
    // Each segment of a position starts there (the sweep meets it now) or ends there (the sweep leaves it).
    const incomingStarts = incoming.start === at;
    const outgoingStarts = outgoing.start === at;
    // The segments below the position, those through it, and those above: split by which side it lies on.
    split(root, at, 1);
    const below = splitLower;
    split(splitUpper, at, 0);
    const through = splitLower;
    const above = splitUpper;
    const passing = passingThrough(
      through,
      incomingStarts ? undefined : incoming,
      outgoingStarts ? undefined : outgoing,
    );
    if (passing) return crossingOf(passing, outgoing);
    const lowest = highestOf(below);
    const highest = lowestOf(above);
    if (!incomingStarts && !outgoingStarts) {
      if (lowest && highest && meet(lowest, highest)) return crossingOf(lowest, highest);
      root = merge(below, above);
      continue;
    }
    let bottom = incomingStarts ? incoming : outgoing;
    let top = bottom;
    if (incomingStarts && outgoingStarts) {
      const turn = orientation(at, incoming.end, outgoing.end);
      if (turn === 0) return crossingOf(incoming, outgoing);
      if (turn < 0) bottom = outgoing;
      else top = outgoing;
    }
    if (lowest && meet(lowest, bottom)) return crossingOf(lowest, bottom);
    if (highest && meet(top, highest)) return crossingOf(top, highest);
    const inserted = bottom === top ? leaf(bottom) : merge(leaf(bottom), leaf(top));
    root = merge(merge(below, inserted), above);
  }
  return undefined;
}

/**
 * Rings of at most this many segments in all, a house's footprint or most lots, are tested pair by pair, without
 * the sweep's sorting and tree: a pair whose boxes are apart costs four comparisons. Over Cambridge's footprints,
 * 10 against 30 µs at 25–48 segments, 28 against 63 at 49–96, 85 against 127 at 97–200, even beyond. Whether any
 * two meet is answered the same.
 */
const PAIRWISE_AT_MOST = 200;

/**
 * The first two segments, in ring order, that meet or share a position (each segment's start is a position). Two
 * segments whose boxes are apart share no point: most pairs of a footprint's edges are told so by four comparisons.
 */
function pairwiseCrossing(segments: readonly Segment[]): Crossing | undefined {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as Segment;
    const from = firstPositionOf(s);
    const [sBottom, sTop] = s.start[1] < s.end[1] ? [s.start[1], s.end[1]] : [s.end[1], s.start[1]];
    for (let j = i + 1; j < segments.length; j++) {
      const t = segments[j] as Segment;
      // A segment's start is never east of its end.
      if (t.start[0] > s.end[0] || t.end[0] < s.start[0]) continue;
      if (Math.min(t.start[1], t.end[1]) > sTop || Math.max(t.start[1], t.end[1]) < sBottom) continue;
      const at = firstPositionOf(t);
      if ((from[0] === at[0] && from[1] === at[1]) || meet(s, t)) return crossingOf(s, t);
    }
  }
  return undefined;
}

/** Every ring's segments in one list, by a loop: `flat` cost more than the pairwise tests of a footprint. */
function concat(ringSegments: readonly Segment[][]): Segment[] {
  const all: Segment[] = [];
  for (const segments of ringSegments) for (const segment of segments) all.push(segment);
  return all;
}

/** The position a segment leaves from in its ring's order: each position of a ring starts one segment. */
function firstPositionOf(segment: Segment): Pair {
  return segment.forward ? segment.start : segment.end;
}

function segmentsOf(ring: readonly Pair[], r: number): Segment[] {
  const count = ring.length - 1;
  const segments: Segment[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const from = ring[i] as Pair;
    // The closing position repeats the first: the last segment ends on the very same pair as the first starts.
    const to = i + 1 === count ? (ring[0] as Pair) : (ring[i + 1] as Pair);
    const forward = compareLexicographically(from, to) < 0;
    segments[i] = { ring: r, index: i, count, start: forward ? from : to, end: forward ? to : from, forward };
  }
  return segments;
}

function compareLexicographically(p: Pair, q: Pair): number {
  return p[0] - q[0] || p[1] - q[1];
}

/** Whether two segments share a point other than the joint of two consecutive edges of one ring. */
function meet(s: Segment, t: Segment): boolean {
  const joint = jointOf(s, t);
  if (joint) {
    // Consecutive edges meet elsewhere only when they fold back along each other.
    const p = s.start === joint ? s.end : s.start;
    const q = t.start === joint ? t.end : t.start;
    return (
      orientation(p, joint, q) === 0 &&
      (p[0] - joint[0]) * (q[0] - joint[0]) + (p[1] - joint[1]) * (q[1] - joint[1]) > 0
    );
  }
  return segmentsMeet(s.start, s.end, t.start, t.end);
}

/** The position two consecutive edges of one ring share, if they are consecutive. */
function jointOf(s: Segment, t: Segment): Pair | undefined {
  if (s.ring !== t.ring) return undefined;
  if ((s.index + 1) % s.count !== t.index && (t.index + 1) % t.count !== s.index) return undefined;
  if (s.start === t.start || s.start === t.end) return s.start;
  if (s.end === t.start || s.end === t.end) return s.end;
  return undefined;
}

function crossingOf(s: Segment, t: Segment): Crossing {
  return { ring: Math.min(s.ring, t.ring), other: Math.max(s.ring, t.ring) };
}

function leaf(segment: Segment): Node {
  return { segment, priority: Math.random(), below: undefined, above: undefined };
}

/** What {@link split} leaves: the bottom part of the treap it cut, and the rest. Not a pair, which it would allocate at each level. */
let splitLower: Node | undefined;
let splitUpper: Node | undefined;

/**
 * The treap cut in two, into {@link splitLower} and {@link splitUpper}: the bottom part holds the segments that `at`
 * lies on the left of (`least` 1) or on the left of or on (`least` 0).
 */
function split(node: Node | undefined, at: Pair, least: 0 | 1): void {
  if (!node) {
    splitLower = undefined;
    splitUpper = undefined;
  } else if (orientation(node.segment.start, node.segment.end, at) >= least) {
    split(node.above, at, least);
    node.above = splitLower;
    splitLower = node;
  } else {
    split(node.below, at, least);
    node.below = splitUpper;
    splitUpper = node;
  }
}

/** Two treaps joined, every segment of `bottom` below every segment of `top`. */
function merge(bottom: Node | undefined, top: Node | undefined): Node | undefined {
  if (!bottom) return top;
  if (!top) return bottom;
  if (bottom.priority > top.priority) {
    bottom.above = merge(bottom.above, top);
    return bottom;
  }
  top.below = merge(bottom, top.below);
  return top;
}

function highestOf(node: Node | undefined): Segment | undefined {
  let current = node;
  while (current?.above) current = current.above;
  return current?.segment;
}

function lowestOf(node: Node | undefined): Segment | undefined {
  let current = node;
  while (current?.below) current = current.below;
  return current?.segment;
}

/** The first segment of the treap (from the bottom), all through one position, other than those ending there. */
function passingThrough(
  node: Node | undefined,
  endingHere: Segment | undefined,
  alsoEndingHere: Segment | undefined,
): Segment | undefined {
  if (!node) return undefined;
  const lower = passingThrough(node.below, endingHere, alsoEndingHere);
  if (lower) return lower;
  if (node.segment !== endingHere && node.segment !== alsoEndingHere) return node.segment;
  return passingThrough(node.above, endingHere, alsoEndingHere);
}
