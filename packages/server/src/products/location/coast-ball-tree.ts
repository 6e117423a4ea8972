import { chordToSegment } from "./chord-to-segment.js";
import { MinHeap } from "./min-heap.js";

/** Edges per leaf: few enough that a leaf's ball stays tight, enough that the tree stays small. */
const LEAF_EDGES = 8;

type Vector = readonly [number, number, number];

/** Centre x, y, z and radius. */
type Ball = [number, number, number, number];

/**
 * A bounding-volume hierarchy over the coast's edges on the unit sphere. Each node is a ball holding the vertices
 * of its edges, and so (a ball being convex) their chords too: the distance from a point to the ball, less its
 * radius, bounds from below the point's distance to every edge under it. A look-up therefore descends to the few
 * leaves near the point, about log n nodes, instead of measuring all 400,000 edges.
 *
 * Built by splitting the edges at the median of their midpoints along the widest axis, so the tree is balanced
 * and each node covers a contiguous run of {@link order}.
 */
export class CoastBallTree {
  /** The edges (index of their first vertex; the second is the next one), in tree order. */
  private readonly order: Uint32Array;
  /** Per node: centre x, y, z and radius. */
  private readonly balls: Float64Array;
  /** Per node: the run of {@link order} it covers, and its first child (the second follows it), or 0 for a leaf. */
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;
  private readonly firstChild: Uint32Array;
  private nodeCount = 0;

  constructor(
    private readonly xyz: Float64Array,
    edges: Uint32Array,
  ) {
    this.order = Uint32Array.from(edges);
    // Every split leaves at least LEAF_EDGES / 2 edges a side, so there are at most that many leaves per edge
    // and one fewer inner nodes.
    const most = 2 * Math.ceil(edges.length / (LEAF_EDGES / 2)) + 1;
    this.balls = new Float64Array(most * 4);
    this.starts = new Uint32Array(most);
    this.ends = new Uint32Array(most);
    this.firstChild = new Uint32Array(most);
    if (edges.length > 0) this.build(this.addNode(0, edges.length));
  }

  /** The least chord distance from `p` to any edge: best-first search, nearest ball first. */
  nearestChord(p: Vector): number {
    let least = Number.POSITIVE_INFINITY;
    if (this.nodeCount === 0) return least;
    const queue = new MinHeap();
    queue.push(this.bound(p, 0), 0);
    while (queue.size > 0 && queue.peekKey() <= least) {
      const node = queue.pop() ?? 0;
      const child = this.firstChild[node] ?? 0;
      if (child === 0) {
        for (let i = this.starts[node] ?? 0; i < (this.ends[node] ?? 0); i++) {
          const a = this.order[i] ?? 0;
          least = Math.min(least, chordToSegment(p, this.xyz, a, a + 1));
        }
        continue;
      }
      for (let next = child; next <= child + 1; next++) {
        const bound = this.bound(p, next);
        if (bound <= least) queue.push(bound, next);
      }
    }
    return least;
  }

  /** Calls `visit` with every edge whose chord lies within `limit` of `p`, skipping balls farther than that. */
  edgesWithin(p: Vector, limit: number, visit: (a: number) => void): void {
    const stack = this.nodeCount > 0 ? [0] : [];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (this.bound(p, node) > limit) continue;
      const child = this.firstChild[node] ?? 0;
      if (child > 0) {
        stack.push(child, child + 1);
        continue;
      }
      for (let i = this.starts[node] ?? 0; i < (this.ends[node] ?? 0); i++) {
        const a = this.order[i] ?? 0;
        if (chordToSegment(p, this.xyz, a, a + 1) <= limit) visit(a);
      }
    }
  }

  /** How near `p` any edge under `node` can be: its distance to the ball less the radius. */
  private bound(p: Vector, node: number): number {
    const b = node * 4;
    const gap = Math.hypot(
      p[0] - (this.balls[b] ?? 0),
      p[1] - (this.balls[b + 1] ?? 0),
      p[2] - (this.balls[b + 2] ?? 0),
    );
    return Math.max(0, gap - (this.balls[b + 3] ?? 0));
  }

  private addNode(start: number, end: number): number {
    const node = this.nodeCount++;
    this.starts[node] = start;
    this.ends[node] = end;
    return node;
  }

  /**
   * Splits `node` in two and recurses until a leaf holds at most {@link LEAF_EDGES}; a leaf's ball is measured
   * from its vertices, a parent's is the least ball around its children's (cheaper, and nearly as tight).
   */
  private build(node: number): void {
    const start = this.starts[node] ?? 0;
    const end = this.ends[node] ?? 0;
    if (end - start <= LEAF_EDGES) {
      this.balls.set(this.ballAround(start, end), node * 4);
      return;
    }
    const middle = (start + end) >> 1;
    selectMedian(this.order, start, end, middle, this.xyz, this.widestAxis(start, end));
    const left = this.addNode(start, middle);
    this.addNode(middle, end);
    this.firstChild[node] = left;
    this.build(left);
    this.build(left + 1);
    this.balls.set(ballAroundBalls(this.ballOf(left), this.ballOf(left + 1)), node * 4);
  }

  private ballOf(node: number): Ball {
    const b = node * 4;
    return [this.balls[b] ?? 0, this.balls[b + 1] ?? 0, this.balls[b + 2] ?? 0, this.balls[b + 3] ?? 0];
  }

  /** The axis (0 = x, 1 = y, 2 = z) along which the edges' midpoints spread widest. */
  private widestAxis(start: number, end: number): number {
    const spread = [0, 1, 2].map((axis) => {
      let low = Number.POSITIVE_INFINITY;
      let high = Number.NEGATIVE_INFINITY;
      for (let i = start; i < end; i++) {
        const value = midpointKey(this.xyz, this.order[i] ?? 0, axis);
        if (value < low) low = value;
        if (value > high) high = value;
      }
      return high - low;
    });
    return spread.indexOf(Math.max(...spread));
  }

  /**
   * A ball holding both ends of every edge in the run: centred in their bounding box, as wide as the farthest.
   * An edge's vertices are consecutive, so the run's vertices are the edges' first vertices and the ones after.
   */
  private ballAround(start: number, end: number): Ball {
    const xyz = this.xyz;
    const [cx = 0, cy = 0, cz = 0] = [0, 1, 2].map((axis) => {
      let low = Number.POSITIVE_INFINITY;
      let high = Number.NEGATIVE_INFINITY;
      for (let i = start; i < end; i++) {
        const at = (this.order[i] ?? 0) * 3 + axis;
        low = Math.min(low, xyz[at] ?? 0, xyz[at + 3] ?? 0);
        high = Math.max(high, xyz[at] ?? 0, xyz[at + 3] ?? 0);
      }
      return (low + high) / 2;
    });
    let radius = 0;
    for (let i = start; i < end; i++) {
      const at = (this.order[i] ?? 0) * 3;
      for (let v = at; v <= at + 3; v += 3) {
        radius = Math.max(radius, Math.hypot((xyz[v] ?? 0) - cx, (xyz[v + 1] ?? 0) - cy, (xyz[v + 2] ?? 0) - cz));
      }
    }
    return [cx, cy, cz, radius];
  }
}

/** Twice the midpoint's coordinate on `axis` of the edge starting at vertex `a`: the key the split sorts by. */
function midpointKey(xyz: Float64Array, a: number, axis: number): number {
  return (xyz[a * 3 + axis] ?? 0) + (xyz[a * 3 + 3 + axis] ?? 0);
}

/**
 * The least ball around two balls. Its radius is then measured back from the centre as computed, so that rounding
 * can never leave a child poking out.
 */
function ballAroundBalls(one: Ball, other: Ball): Ball {
  const [x1, y1, z1, r1] = one;
  const [x2, y2, z2, r2] = other;
  const apart = Math.hypot(x2 - x1, y2 - y1, z2 - z1);
  if (apart + r2 <= r1) return one;
  if (apart + r1 <= r2) return other;
  const shift = ((apart + r1 + r2) / 2 - r1) / apart;
  const centre: [number, number, number] = [x1 + (x2 - x1) * shift, y1 + (y2 - y1) * shift, z1 + (z2 - z1) * shift];
  const reach = (ball: Ball) => Math.hypot(ball[0] - centre[0], ball[1] - centre[1], ball[2] - centre[2]) + ball[3];
  return [...centre, Math.max(reach(one), reach(other))];
}

/**
 * Reorders the edges `items[start, end)` so the one at `nth` is the one a sort by {@link midpointKey} would put
 * there, with none greater before it and none smaller after (Hoare's selection): the median split in linear time,
 * not a sort per node.
 */
function selectMedian(items: Uint32Array, start: number, end: number, nth: number, xyz: Float64Array, axis: number) {
  const key = (i: number) => midpointKey(xyz, items[i] ?? 0, axis);
  let low = start;
  let high = end - 1;
  while (low < high) {
    const pivot = key((low + high) >> 1);
    let i = low;
    let j = high;
    while (i <= j) {
      while (key(i) < pivot) i++;
      while (key(j) > pivot) j--;
      if (i <= j) {
        const swap = items[i] ?? 0;
        items[i] = items[j] ?? 0;
        items[j] = swap;
        i++;
        j--;
      }
    }
    if (nth <= j) high = j;
    else if (nth >= i) low = i;
    else return;
  }
}
