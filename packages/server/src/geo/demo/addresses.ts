import { LOT_LINE, points, type TaggedVertex, taggedLength } from "./convex.js";
import type { LotUse } from "./land-use.js";
import type { PlannedLot } from "./lots.js";
import { cross, distance, dot, lerp, type Pt, scale, sub } from "./planar.js";
import type { PlannedStreet, StreetPlan } from "./street-plan.js";

/** The street a lot is addressed on, the middle of its longest stretch of frontage there, and which way is back. */
export interface Frontage {
  street: PlannedStreet;
  at: Pt;
  front: 1 | -1;
}

/**
 * A lot faces the street its row faces, as long as it has five metres on it (the diagonal road may have taken
 * them); otherwise, like a whole-block parcel, the street it has most frontage on (Main Street first).
 */
export function frontageOf(lot: PlannedLot, plan: StreetPlan): Frontage {
  const tags = [...new Set(lot.polygon.map((v) => v.tag).filter((tag) => tag !== LOT_LINE))];
  const length = (tag: number) => taggedLength(lot.polygon, tag);
  const preferred = [lot.rowStreet, lot.role === "shopping" ? plan.main.index : undefined].find(
    (tag) => tag !== undefined && length(tag) >= 5,
  );
  const tag = preferred ?? tags.sort((a, b) => length(b) - length(a))[0];
  const street = tag === undefined ? undefined : plan.streets[tag];
  if (!street) throw new Error("a generated lot has no street frontage");
  let best: { at: Pt; length: number } = { at: [0, 0], length: -1 };
  lot.polygon.forEach((v, i) => {
    const next = lot.polygon[(i + 1) % lot.polygon.length] as TaggedVertex;
    if (v.tag === tag && distance(v.p, next.p) > best.length)
      best = { at: lerp(v.p, next.p, 0.5), length: distance(v.p, next.p) };
  });
  if (tag === lot.rowStreet) return { street, at: best.at, front: lot.rowFront };
  const ring = points(lot.polygon);
  const centre = scale(
    ring.reduce((a, p) => [a[0] + p[0], a[1] + p[1]] as Pt, [0, 0]),
    1 / ring.length,
  );
  return { street, at: best.at, front: dot(lot.frame.across, sub(centre, best.at)) >= 0 ? 1 : -1 };
}

/**
 * House numbers in the usual American way: a new hundred at each cross street (for the diagonal road, at every
 * crossing), numbers rising along the street in proportion to the distance through the block, odd on the left
 * (facing the direction numbers rise) and even on the right. Along each side of a street they strictly
 * increase, so no two lots share a number; a duplex takes two (`12-14`).
 */
export function houseNumbers(frontages: readonly Frontage[], uses: readonly LotUse[]): string[] {
  const placed = frontages.map(({ street, at }, k) => {
    const t = dot(sub(at, street.origin), street.dir);
    const odd = cross(street.dir, sub(at, street.origin)) > 0;
    const passed = street.hundreds.filter((h) => h <= t).length;
    const from = street.hundreds[passed - 1] ?? street.start;
    const to = street.hundreds[passed] ?? street.end;
    const fraction = Math.min(Math.max((t - from) / (to - from), 0), 0.999);
    const number = 100 * passed + 2 * (1 + Math.floor(fraction * 46)) - (odd ? 1 : 0);
    return { k, side: `${street.index}:${odd}`, t, number };
  });
  placed.sort((a, b) => (a.side === b.side ? a.t - b.t : a.side < b.side ? -1 : 1));
  const out: string[] = [];
  let side = "";
  let last = Number.NEGATIVE_INFINITY;
  for (const lot of placed) {
    if (lot.side !== side) [side, last] = [lot.side, Number.NEGATIVE_INFINITY];
    const number = Math.max(lot.number, last + 2);
    const duplex = uses[lot.k]?.duplex === true;
    out[lot.k] = duplex ? `${number}-${number + 2}` : `${number}`;
    last = duplex ? number + 2 : number;
  }
  return out;
}
