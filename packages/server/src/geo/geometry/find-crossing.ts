import { orientation } from "./orientation.js";
import type { Pair } from "./read-polygons.js";
import { segmentsMeet } from "./segments-meet.js";
import { sortByPosition } from "./sort-by-position.js";

/** Two rings (0-based indexes into the rings given; the same twice when a ring meets itself) that share a point. */
export interface Crossing {
  ring: number;
  other: number;
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
  let count = 0;
  for (const ring of rings) count += ring.length - 1;
  if (count <= pairwiseAtMost) return pairwiseCrossing(rings);
  return new Sweep(rings, count).run();
}

/**
 * The sweep over rings of many segments, a flood zone's or a river's of up to millions of positions: kept in typed
 * arrays indexed by segment, not an object a segment, a position and a tree node, which were a quarter of what a
 * flood layer's import allocated. Segment `g` runs from position `g` of all the rings' positions in turn to the
 * position after it in its ring; the tree of the segments the sweep line cuts is a treap whose node `g` is
 * segment `g` (each enters the tree once).
 */
class Sweep {
  /** Every ring's positions but its closing one, ring after ring. */
  readonly #positions: Pair[];
  /** Their longitudes and latitudes, which the sort and the search for repeated positions read. */
  readonly #x: Float64Array;
  readonly #y: Float64Array;
  /** The segment after each in its ring's order (the last of a ring is followed by its first). */
  readonly #next: Int32Array;
  readonly #previous: Int32Array;
  readonly #ring: Int32Array;
  /** Whether the segment runs from its lexicographically smaller end (by longitude, then latitude), met first. */
  readonly #forward: Uint8Array;
  /** Each segment's ends as the sweep meets them: the position of its start (met first) and of its end. */
  readonly #startAt: Int32Array;
  readonly #endAt: Int32Array;
  readonly #priority: Float64Array;
  /** The treap's children of each node; -1, none. */
  readonly #below: Int32Array;
  readonly #above: Int32Array;
  /** What `#split` leaves: the bottom part of the treap it cut, and the rest. */
  #lower = NONE;
  #upper = NONE;

  constructor(rings: readonly Pair[][], count: number) {
    this.#positions = new Array(count);
    this.#x = new Float64Array(count);
    this.#y = new Float64Array(count);
    this.#next = new Int32Array(count);
    this.#previous = new Int32Array(count);
    this.#ring = new Int32Array(count);
    this.#forward = new Uint8Array(count);
    this.#startAt = new Int32Array(count);
    this.#endAt = new Int32Array(count);
    this.#priority = new Float64Array(count);
    this.#below = new Int32Array(count).fill(NONE);
    this.#above = new Int32Array(count).fill(NONE);
    let first = 0;
    for (const [r, ring] of rings.entries()) {
      const last = first + ring.length - 2;
      for (let g = first; g <= last; g++) {
        const position = ring[g - first] as Pair;
        this.#positions[g] = position;
        this.#x[g] = position[0];
        this.#y[g] = position[1];
        this.#next[g] = g === last ? first : g + 1;
        this.#previous[g] = g === first ? last : g - 1;
        this.#ring[g] = r;
      }
      first = last + 1;
    }
    for (let g = 0; g < count; g++) {
      const forward = compareLexicographically(this.#from(g), this.#to(g)) < 0;
      this.#forward[g] = forward ? 1 : 0;
      this.#startAt[g] = forward ? g : (this.#next[g] as number);
      this.#endAt[g] = forward ? (this.#next[g] as number) : g;
    }
  }

  run(): Crossing | undefined {
    const positions = this.#positions;
    // Each position, by the segment leaving it, in the sweep's order (equal ones in ring order).
    const order = sortByPosition(this.#x, this.#y);
    for (let k = 1; k < order.length; k++) {
      const previous = order[k - 1] as number;
      const current = order[k] as number;
      if (this.#x[previous] === this.#x[current] && this.#y[previous] === this.#y[current]) {
        return { ring: this.#ring[previous] as number, other: this.#ring[current] as number };
      }
    }

    let root = NONE;
    for (const outgoing of order) {
      const at = positions[outgoing] as Pair;
      const incoming = this.#previous[outgoing] as number;
      // Each segment of a position starts there (the sweep meets it now) or ends there (the sweep leaves it).
      const incomingStarts = this.#forward[incoming] === 0;
      const outgoingStarts = this.#forward[outgoing] === 1;
      // The segments below the position, those through it, and those above: split by which side it lies on.
      this.#split(root, outgoing, 1);
      const below = this.#lower;
      this.#split(this.#upper, outgoing, 0);
      const through = this.#lower;
      const above = this.#upper;
      const passing = this.#passingThrough(through, incomingStarts ? NONE : incoming, outgoingStarts ? NONE : outgoing);
      if (passing !== NONE) return this.#crossingOf(passing, outgoing);
      const lowest = this.#highestOf(below);
      const highest = this.#lowestOf(above);
      if (!incomingStarts && !outgoingStarts) {
        if (lowest !== NONE && highest !== NONE && this.#meet(lowest, highest))
          return this.#crossingOf(lowest, highest);
        root = this.#merge(below, above);
        continue;
      }
      let bottom = incomingStarts ? incoming : outgoing;
      let top = bottom;
      if (incomingStarts && outgoingStarts) {
        const turn = orientation(at, this.#end(incoming), this.#end(outgoing));
        if (turn === 0) return this.#crossingOf(incoming, outgoing);
        if (turn < 0) bottom = outgoing;
        else top = outgoing;
      }
      if (lowest !== NONE && this.#meet(lowest, bottom)) return this.#crossingOf(lowest, bottom);
      if (highest !== NONE && this.#meet(top, highest)) return this.#crossingOf(top, highest);
      const inserted = bottom === top ? this.#leaf(bottom) : this.#merge(this.#leaf(bottom), this.#leaf(top));
      root = this.#merge(this.#merge(below, inserted), above);
    }
    return undefined;
  }

  /** The position segment `g` leaves from in its ring's order, and the one it goes to. */
  #from(g: number): Pair {
    return this.#positions[g] as Pair;
  }

  #to(g: number): Pair {
    return this.#positions[this.#next[g] as number] as Pair;
  }

  #start(g: number): Pair {
    return this.#forward[g] ? this.#from(g) : this.#to(g);
  }

  #end(g: number): Pair {
    return this.#forward[g] ? this.#to(g) : this.#from(g);
  }

  /** Whether two segments share a point other than the joint of two consecutive edges of one ring. */
  #meet(s: number, t: number): boolean {
    if (this.#next[s] === t) return foldsBack(this.#from(s), this.#from(t), this.#to(t));
    if (this.#next[t] === s) return foldsBack(this.#from(t), this.#from(s), this.#to(s));
    return segmentsMeet(this.#start(s), this.#end(s), this.#start(t), this.#end(t));
  }

  #crossingOf(s: number, t: number): Crossing {
    const [r, q] = [this.#ring[s] as number, this.#ring[t] as number];
    return { ring: Math.min(r, q), other: Math.max(r, q) };
  }

  #leaf(g: number): number {
    this.#priority[g] = Math.random();
    return g;
  }

  /**
   * The treap cut in two, into `#lower` and `#upper`: the bottom part holds the segments that position `at` lies on
   * the left of (`least` 1) or on the left of or on (`least` 0). A loop down one path, each node going to the part
   * it belongs to with its subtree on the far side, rather than a call for each level of the tree.
   */
  #split(root: number, at: number, least: 0 | 1): void {
    const positions = this.#positions;
    const point = positions[at] as Pair;
    let lowerLast = NONE;
    let upperLast = NONE;
    this.#lower = NONE;
    this.#upper = NONE;
    for (let node = root; node !== NONE; ) {
      const start = positions[this.#startAt[node] as number] as Pair;
      const end = positions[this.#endAt[node] as number] as Pair;
      if (orientation(start, end, point) >= least) {
        // The node and every segment below it lie in the bottom part; those above it are yet to be cut.
        if (lowerLast === NONE) this.#lower = node;
        else this.#above[lowerLast] = node;
        lowerLast = node;
        node = this.#above[node] as number;
      } else {
        if (upperLast === NONE) this.#upper = node;
        else this.#below[upperLast] = node;
        upperLast = node;
        node = this.#below[node] as number;
      }
    }
    if (lowerLast !== NONE) this.#above[lowerLast] = NONE;
    if (upperLast !== NONE) this.#below[upperLast] = NONE;
  }

  /** Two treaps joined, every segment of `bottom` below every segment of `top`. */
  #merge(bottom: number, top: number): number {
    if (bottom === NONE) return top;
    if (top === NONE) return bottom;
    if ((this.#priority[bottom] as number) > (this.#priority[top] as number)) {
      this.#above[bottom] = this.#merge(this.#above[bottom] as number, top);
      return bottom;
    }
    this.#below[top] = this.#merge(bottom, this.#below[top] as number);
    return top;
  }

  #highestOf(node: number): number {
    let current = node;
    while (current !== NONE && this.#above[current] !== NONE) current = this.#above[current] as number;
    return current;
  }

  #lowestOf(node: number): number {
    let current = node;
    while (current !== NONE && this.#below[current] !== NONE) current = this.#below[current] as number;
    return current;
  }

  /** The first segment of the treap (from the bottom), all through one position, other than those ending there. */
  #passingThrough(node: number, endingHere: number, alsoEndingHere: number): number {
    if (node === NONE) return NONE;
    const lower = this.#passingThrough(this.#below[node] as number, endingHere, alsoEndingHere);
    if (lower !== NONE) return lower;
    if (node !== endingHere && node !== alsoEndingHere) return node;
    return this.#passingThrough(this.#above[node] as number, endingHere, alsoEndingHere);
  }
}

/** No segment: an empty treap or child. */
const NONE = -1;

/**
 * Rings of at most this many segments in all, a house's footprint or most lots, are tested pair by pair, without
 * the sweep's sorting and tree: a pair whose boxes are apart costs four comparisons. Over the zoning districts'
 * rings, pair by pair against the sweep: 2.4 against 9.8 µs at up to 48 segments, 12 against 17 at 65–80, 27 against
 * 27 at 97–128, 38 against 29 at 129–160, 56 against 41 at 161–200. Whether any two meet is answered the same.
 */
const PAIRWISE_AT_MOST = 112;

/**
 * The first two edges, in ring order, that meet or share a position (each edge's start is a position), read from the
 * rings as they are: an object for each edge was most of what validating a footprint allocated. Two edges whose
 * boxes are apart share no point: most pairs of a footprint's edges are told so by four comparisons.
 */
function pairwiseCrossing(rings: readonly Pair[][]): Crossing | undefined {
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r] as Pair[];
    const count = ring.length - 1;
    for (let i = 0; i < count; i++) {
      const a = ring[i] as Pair;
      const b = ring[i + 1] as Pair;
      const west = Math.min(a[0], b[0]);
      const east = Math.max(a[0], b[0]);
      const south = Math.min(a[1], b[1]);
      const north = Math.max(a[1], b[1]);
      for (let q = r; q < rings.length; q++) {
        const other = rings[q] as Pair[];
        const otherCount = other.length - 1;
        for (let j = q === r ? i + 1 : 0; j < otherCount; j++) {
          const c = other[j] as Pair;
          const d = other[j + 1] as Pair;
          if (Math.min(c[0], d[0]) > east || Math.max(c[0], d[0]) < west) continue;
          if (Math.min(c[1], d[1]) > north || Math.max(c[1], d[1]) < south) continue;
          if ((a[0] === c[0] && a[1] === c[1]) || edgesMeet(a, b, c, d, q === r ? jointAt(i, j, count) : "none")) {
            return { ring: r, other: q };
          }
        }
      }
    }
  }
  return undefined;
}

/** Where two edges `i` < `j` of one ring of `count` edges join: the end of `i`, the start of `i`, or nowhere. */
type Joint = "end" | "start" | "none";

function jointAt(i: number, j: number, count: number): Joint {
  if (j === i + 1) return "end";
  if (i === 0 && j === count - 1) return "start";
  return "none";
}

/**
 * Whether edges `a`–`b` and `c`–`d` share a point other than the position where consecutive edges of one ring join:
 * `b` (= `c`) when `joint` is "end", `a` (= `d`) when it is "start".
 */
function edgesMeet(a: Pair, b: Pair, c: Pair, d: Pair, joint: Joint): boolean {
  if (joint === "end") return foldsBack(a, b, d);
  if (joint === "start") return foldsBack(b, a, c);
  return segmentsMeet(a, b, c, d);
}

/** -1, 0 or 1 by longitude, then latitude (a difference of doubles was a number allocated at each comparison). */
function compareLexicographically(p: Pair, q: Pair): -1 | 0 | 1 {
  if (p[0] !== q[0]) return p[0] < q[0] ? -1 : 1;
  if (p[1] !== q[1]) return p[1] < q[1] ? -1 : 1;
  return 0;
}

/** Whether consecutive edges `p`–`joint` and `joint`–`q` meet beyond their joint: only by folding back. */
function foldsBack(p: Pair, joint: Pair, q: Pair): boolean {
  return (
    orientation(p, joint, q) === 0 && (p[0] - joint[0]) * (q[0] - joint[0]) + (p[1] - joint[1]) * (q[1] - joint[1]) > 0
  );
}
