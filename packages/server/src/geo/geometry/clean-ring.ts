import type { Pair } from "./read-polygons.js";

/** A ring closed and rid of immediate repeats, with what that took and how many distinct positions remain. */
export interface CleanRing {
  ring: Pair[];
  closed: boolean;
  droppedDuplicates: boolean;
  /** Counted up to 3, which is all a ring needs. */
  distinct: number;
}

/** Positions within this many degrees (about a hundredth of a millimetre) of one line make a ring of zero area. */
const FLAT_DEGREES = 1e-10;

/** Closes the ring if it is open and drops positions that repeat the one before (the closing one apart). */
export function cleanRing(positions: readonly Pair[]): CleanRing {
  const first = positions[0];
  const last = positions[positions.length - 1];
  const wasClosed = positions.length >= 2 && first !== undefined && last !== undefined && samePair(first, last);
  const openLength = wasClosed ? positions.length - 1 : positions.length;
  // One array, closed at the end: a flood zone's ring has a hundred thousand positions to go through.
  const kept: Pair[] = [];
  for (let i = 0; i < openLength; i++) {
    const position = positions[i] as Pair;
    const previous = kept[kept.length - 1];
    if (previous === undefined || !samePair(previous, position)) kept.push(position);
  }
  // An open ring that already ends on its first position: the end is a repeat too.
  while (kept.length > 1 && samePair(kept[0] as Pair, kept[kept.length - 1] as Pair)) kept.pop();
  const droppedDuplicates = kept.length < openLength;
  const distinct = distinctUpTo3(kept);
  const start = kept[0];
  if (start !== undefined) kept.push(start);
  return { ring: kept, closed: !wasClosed && positions.length > 0, droppedDuplicates, distinct };
}

/** How many distinct positions `ring` has, counted up to 3: a few comparisons, where a set would hash them all. */
function distinctUpTo3(ring: readonly Pair[]): number {
  const found: Pair[] = [];
  for (const position of ring) {
    if (!found.some((seen) => samePair(seen, position))) found.push(position);
    if (found.length === 3) break;
  }
  return found.length;
}

/**
 * Whether a ring encloses no area because its positions all lie on one straight line (in longitude/latitude),
 * within {@link FLAT_DEGREES}.
 */
export function isFlat(ring: readonly Pair[]): boolean {
  const origin = ring[0];
  if (origin === undefined) return true;
  let far = origin;
  let farthest = 0;
  for (const position of ring) {
    const d = (position[0] - origin[0]) ** 2 + (position[1] - origin[1]) ** 2;
    if (d > farthest) {
      far = position;
      farthest = d;
    }
  }
  if (farthest === 0) return true;
  const length = Math.sqrt(farthest);
  const [dx, dy] = [far[0] - origin[0], far[1] - origin[1]];
  return ring.every(([lon, lat]) => Math.abs((lon - origin[0]) * dy - (lat - origin[1]) * dx) / length <= FLAT_DEGREES);
}

export function samePair(a: Pair, b: Pair): boolean {
  return a[0] === b[0] && a[1] === b[1];
}
