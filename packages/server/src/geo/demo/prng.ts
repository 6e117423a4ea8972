/**
 * mulberry32: a 32-bit seeded pseudo-random generator (Tommy Ettinger's, public domain). Small, fast and the same
 * on every platform, which is all a generated neighbourhood needs; it is not for secrets.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a label, to give each part of the generator its own stream from one seed. */
function hashLabel(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Draws from a mulberry32 stream: numbers in ranges, coin flips, picks and shuffles. */
export class Random {
  readonly #next: () => number;

  /** `label` separates streams: the streets do not move when the way buildings are drawn changes. */
  constructor(seed: number, label = "") {
    this.#next = mulberry32((seed ^ hashLabel(label)) >>> 0);
  }

  /** A number in [0, 1). */
  next(): number {
    return this.#next();
  }

  /** A number in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.#next();
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor((max - min + 1) * this.#next());
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.#next() < p;
  }

  /** -1 or 1, evenly. */
  sign(): number {
    return this.#next() < 0.5 ? -1 : 1;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(items.length * this.#next())];
    if (item === undefined) throw new RangeError("Random.pick needs at least one item");
    return item;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor((i + 1) * this.#next());
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
}
