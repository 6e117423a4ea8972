import type { Pair } from "./read-polygons.js";

/** A straight edge from `a` to `b`. */
export interface Segment {
  a: Pair;
  b: Pair;
}

/** Edges per strip, on average over a ring's height: few enough that a query reads little beyond what it needs. */
const EDGES_PER_STRIP = 8;

/** Strips at most: an edge spanning every strip is listed in each. */
const MAX_STRIPS = 4096;

/**
 * The edges of an area bucketed by the horizontal strips their latitudes span, so that the edges near one box or
 * at one latitude are found among a few strips' rather than all of them. Comparing two rings edge by edge costs
 * their product; a footprint of three thousand vertices on a lot of eight thousand took a second and a quarter.
 * Only narrows: each strip is exact about which edges it holds, the callers' predicates decide the rest.
 */
export class EdgeStrips<E extends Segment> {
  /** The box of every edge: [min longitude, min latitude, max longitude, max latitude]. */
  readonly box: [number, number, number, number];
  readonly #edges: readonly E[];
  readonly #strips: number[][];
  readonly #bottom: number;
  readonly #height: number;
  /** The query that last visited each edge: an edge spanning several strips is visited once per query. */
  readonly #visited: Uint32Array;
  #query = 0;

  constructor(edges: readonly E[]) {
    this.#edges = edges;
    let [left, bottom] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    let [right, top] = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (const { a, b } of edges) {
      left = Math.min(left, a[0], b[0]);
      bottom = Math.min(bottom, a[1], b[1]);
      right = Math.max(right, a[0], b[0]);
      top = Math.max(top, a[1], b[1]);
    }
    this.box = [left, bottom, right, top];
    const count = Math.max(1, Math.min(MAX_STRIPS, Math.ceil(edges.length / EDGES_PER_STRIP)));
    this.#bottom = bottom;
    this.#height = (top - bottom) / count;
    this.#strips = [];
    for (let strip = 0; strip < count; strip++) this.#strips.push([]);
    for (const [index, { a, b }] of edges.entries()) {
      const last = this.#stripOf(Math.max(a[1], b[1]));
      for (let strip = this.#stripOf(Math.min(a[1], b[1])); strip <= last; strip++) this.#strips[strip]?.push(index);
    }
    this.#visited = new Uint32Array(edges.length);
  }

  /** The edges, in the order given: {@link atLatitude} names them by their place here. */
  get edges(): readonly E[] {
    return this.#edges;
  }

  /**
   * Writes into `found`, from its start, each edge whose box meets the box from (minX, minY) to (maxX, maxY), once
   * and in no particular order; returns how many (entries past them are left as they were). A caller that loops
   * over them keeps its running sums in its own variables: summed inside a callback, a number is a variable the
   * callback shares, and each new value of it is an object allocated.
   */
  meeting(minX: number, minY: number, maxX: number, maxY: number, found: E[]): number {
    const query = this.#nextQuery();
    const last = this.#stripOf(maxY);
    let count = 0;
    for (let strip = this.#stripOf(minY); strip <= last; strip++) {
      for (const index of this.#strips[strip] ?? []) {
        if (this.#visited[index] === query) continue;
        this.#visited[index] = query;
        const edge = this.#edges[index] as E;
        const { a, b } = edge;
        if (Math.max(a[0], b[0]) < minX || Math.min(a[0], b[0]) > maxX) continue;
        if (Math.max(a[1], b[1]) < minY || Math.min(a[1], b[1]) > maxY) continue;
        found[count++] = edge;
      }
    }
    return count;
  }

  /** The places in {@link edges} of the edges in the strip holding latitude `y`: among them, every edge spanning it. */
  atLatitude(y: number): readonly number[] {
    return this.#strips[this.#stripOf(y)] ?? [];
  }

  /**
   * The strip of latitude `y`. Non-decreasing in `y`, so an edge is listed in every strip a latitude it spans maps
   * to, rounding included; latitudes beyond the edges map to the first or last strip.
   */
  #stripOf(y: number): number {
    const strip = Math.floor((y - this.#bottom) / this.#height);
    if (!(strip > 0)) return 0; // also a flat set of edges (height 0) or no edges at all
    return Math.min(this.#strips.length - 1, strip);
  }

  #nextQuery(): number {
    if (this.#query === 0xffffffff) {
      this.#visited.fill(0);
      this.#query = 0;
    }
    return ++this.#query;
  }
}
