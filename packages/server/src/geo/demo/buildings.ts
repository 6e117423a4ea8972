import {
  type EdgeTag,
  fitsInside,
  type HalfPlane,
  insetPlanes,
  LOT_LINE,
  points,
  type TaggedPolygon,
} from "./convex.js";
import { houseOutline, type Outline, rectangle, withBump } from "./footprints.js";
import type { LotUse } from "./land-use.js";
import type { BlockFrame, PlannedLot, RowhouseRun } from "./lots.js";
import { add, dot, extent, type Pt, scale } from "./planar.js";
import type { Random } from "./prng.js";

export type BuildingKind = "house" | "garage" | "shed" | "commercial" | "rowhouse";

export interface PlannedBuilding {
  kind: BuildingKind;
  /** Plane metres. */
  ring: Pt[];
}

/**
 * A lot seen from its street, in the block's axes: `v` along the block, `u` across it. `edge` is the lot's
 * frontmost `u`; `front` says which way is back (+1: towards larger `u`).
 */
interface Site {
  frame: BlockFrame;
  polygon: TaggedPolygon;
  vMin: number;
  vMax: number;
  /** The lot's centre along the block (mean of its corners: a triangle's is off its bounding box's middle). */
  vMiddle: number;
  edge: number;
  depth: number;
  front: 1 | -1;
}

interface Box {
  vMin: number;
  vMax: number;
  uMin: number;
  uMax: number;
}

/** Set-backs in metres: from a street's right-of-way, and from other lot lines. */
interface Setbacks {
  street: number;
  side: number;
}

const HOUSE: Setbacks = { street: 4, side: 1.2 };
const ACCESSORY: Setbacks = { street: 4, side: 1 };
const SHOP: Setbacks = { street: 1, side: 1.2 };

/**
 * The buildings on one lot. Each footprint's bounding box (square to the block) is placed inside the (convex)
 * lot, clear of its edges by the set-backs above, so the footprint is too; and clear of the lot's other
 * buildings' boxes by a metre or more. A building that finds no such place is left out, so a lot may stay
 * empty.
 */
export function placeBuildings(lot: PlannedLot, use: LotUse, front: 1 | -1, random: Random): PlannedBuilding[] {
  const site = siteOf(lot, front);
  const width = site.vMax - site.vMin;
  const placed: { kind: BuildingKind; local: Pt[] }[] = [];
  const keep = (kind: BuildingKind, local: Pt[] | undefined): void => {
    if (local) placed.push({ kind, local });
  };
  const taken = () => placed.map((b) => box(b.local));

  if (lot.role === "shopping") {
    // A supermarket at the back of its car park, and a small pad building by the street.
    const w = Math.min(width * 0.6, random.between(48, 62));
    const d = Math.min(site.depth * 0.6, random.between(32, 40));
    keep(
      "commercial",
      placeMain(site, () => rectangle(w, d), site.depth * 0.3, SHOP, random),
    );
    const pad = rectangle(random.between(12, 16), random.between(10, 14));
    keep(
      "commercial",
      placeBox(site, pad, SHOP, taken(), 6, steps(4, site.depth, 2), (lo, hi) => [lo, hi]),
    );
  } else if (use.use === "park") {
    const shelter = rectangle(random.between(6, 8), random.between(5, 7));
    const middle = (site.depth - 6) / 2;
    const mid = (site.vMin + site.vMax - 7) / 2;
    keep(
      "shed",
      placeBox(site, shelter, ACCESSORY, [], 0, steps(middle, site.depth, 3), (lo, hi) => [clamp(mid, lo, hi)]),
    );
  } else if (use.fireStation) {
    const w = Math.max(Math.min(width - 2.6, random.between(18, 22)), 4);
    const d = random.between(20, 26);
    keep(
      "commercial",
      placeMain(site, () => rectangle(w, d), random.between(4, 8), SHOP, random),
    );
  } else if (use.use === "commercial") {
    const w = Math.max(Math.min(width - 2.6, 42), 4);
    const d = Math.min(site.depth * random.between(0.5, 0.7), 36);
    keep(
      "commercial",
      placeMain(site, () => rectangle(w, d), random.between(1.5, 3), SHOP, random),
    );
  } else if (use.use === "multifamily") {
    const w = Math.max(Math.min(width - 3, random.between(16, 24)), 6);
    const d = random.between(16, 22);
    keep(
      "house",
      placeMain(site, () => withBump(w, d, random), random.between(5, 7), HOUSE, random),
    );
  } else if (use.use === "residential" && lot.role === "residential") {
    const w = Math.min(
      width - 2.6 - random.between(0, 3),
      use.duplex ? random.between(12, 16) : random.between(8, 13.5),
    );
    const d = use.duplex ? random.between(10, 13) : random.between(8.5, 13);
    const house = placeMain(site, () => houseOutline(Math.max(w, 5), d, random), random.between(5, 8), HOUSE, random);
    if (house) {
      keep("house", house);
      const back = Math.max(...house.map(([, u]) => (u - site.edge) * site.front));
      // A detached garage behind the house, against one side lot line; a shed in a rear corner.
      if (random.chance(use.duplex ? 0.6 : 0.55)) {
        const garage = rectangle(
          random.chance(0.6) ? random.between(5.8, 7) : random.between(3.6, 4.2),
          random.between(6, 7.2),
        );
        const side = random.chance(0.5) ? (lo: number, hi: number) => [lo, hi] : (lo: number, hi: number) => [hi, lo];
        keep(
          "garage",
          placeBox(site, garage, ACCESSORY, taken(), 1.5, steps(back + random.between(2, 5), site.depth, 1), side),
        );
      }
      if (random.chance(0.3)) {
        const shed = rectangle(random.between(2.4, 3.6), random.between(2.4, 3.6));
        const side = random.chance(0.5) ? (lo: number, hi: number) => [lo, hi] : (lo: number, hi: number) => [hi, lo];
        keep("shed", placeBox(site, shed, ACCESSORY, taken(), 1, steps(site.depth, back + 1.5, -1), side));
      }
    }
  }
  return placed.map(({ kind, local }) => ({ kind, ring: local.map((p) => toPlane(site.frame, p)) }));
}

/**
 * Rowhouses across a run of narrow lots: one continuous terrace whose party walls stand 0.35–0.9 m past each
 * lot line, so every unit but the last straddles a line while most of it (three quarters or more) stays on its
 * own lot. The end walls stand 0.9 m inside the run; neighbouring units share their wall's two corners exactly.
 */
export function placeRowhouses(run: RowhouseRun, random: Random): PlannedBuilding[] {
  const { frame, cuts } = run;
  const row = toLocalPolygon(frame, run.row);
  const walls = cuts.map((c, k) =>
    k === 0 ? c + 0.9 : k === cuts.length - 1 ? c - 0.9 : c + random.between(0.35, 0.9),
  );
  const [uMin, uMax] = extent(points(row), [0, 1]);
  const edge = run.rowFront === 1 ? uMin : uMax;
  const margin = (tag: EdgeTag) => (tag === LOT_LINE ? 1.5 : 2.5);
  for (const depth of [random.between(10, 13), 9, 8]) {
    for (let b = 2.5; b < 14; b += 0.5) {
      const [front, back] = [edge + run.rowFront * b, edge + run.rowFront * (b + depth)];
      const units = walls.slice(1).map((right, k): Pt[] => {
        const l = walls[k] as number;
        return [
          [l, front],
          [right, front],
          [right, back],
          [l, back],
        ];
      });
      if (units.every((unit) => fitsInside(unit, row, margin))) {
        return units.map((unit) => ({ kind: "rowhouse", ring: unit.map((p) => toPlane(frame, p)) }));
      }
    }
  }
  return [];
}

const toLocal = (frame: BlockFrame, p: Pt): Pt => [dot(frame.along, p), dot(frame.across, p)];
const toPlane = (frame: BlockFrame, [v, u]: Pt): Pt => add(scale(frame.along, v), scale(frame.across, u));

function toLocalPolygon(frame: BlockFrame, polygon: TaggedPolygon): TaggedPolygon {
  return polygon.map(({ p, tag }) => ({ p: toLocal(frame, p), tag }));
}

function siteOf(lot: PlannedLot, front: 1 | -1): Site {
  const polygon = toLocalPolygon(lot.frame, lot.polygon);
  const [vMin, vMax] = extent(points(polygon), [1, 0]);
  const [uMin, uMax] = extent(points(polygon), [0, 1]);
  const vMiddle = polygon.reduce((sum, { p }) => sum + p[0], 0) / polygon.length;
  return { frame: lot.frame, polygon, vMin, vMax, vMiddle, edge: front === 1 ? uMin : uMax, depth: uMax - uMin, front };
}

/** Where a lot point `b` metres back from the front and at `v` along the block lies, in block axes. */
const at = (site: Site, v: number, b: number): Pt => [v, site.edge + site.front * b];

function box(local: readonly Pt[]): Box {
  const [vMin, vMax] = extent(local, [1, 0]);
  const [uMin, uMax] = extent(local, [0, 1]);
  return { vMin, vMax, uMin, uMax };
}

function apart(a: Box, b: Box, gap: number): boolean {
  return a.vMax + gap <= b.vMin || b.vMax + gap <= a.vMin || a.uMax + gap <= b.uMin || b.uMax + gap <= a.uMin;
}

/** `from`, `from + step`, … while short of `to` (or past it, stepping down). */
function* steps(from: number, to: number, step: number): Generator<number> {
  for (let x = from; step > 0 ? x < to : x > to; x += step) yield x;
}

const clamp = (x: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, x));

/**
 * The range of `v` at which a box `width` wide, spanning `u1` to `u2` across the block, stays inside every
 * half-plane; `undefined` if there is none. The half-planes are the lot's edges moved in by their set-backs; a
 * convex lot that holds the box's corners holds the box.
 */
function span(planes: readonly HalfPlane[], u1: number, u2: number, width: number): [number, number] | undefined {
  let [lo, hi] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (const { normal, offset } of planes) {
    const [nv, nu] = normal;
    for (const u of [u1, u2]) {
      const need = offset - nu * u; // nv · v ≥ need, at both ends of the box
      if (Math.abs(nv) < 1e-12) {
        if (need > 0) return undefined;
      } else if (nv > 0) lo = Math.max(lo, need / nv);
      else hi = Math.min(hi, need / nv - width);
    }
  }
  return lo <= hi ? [lo, hi] : undefined;
}

/** The outline with its box's near corner at `v0` along the block and `b` back from the front. */
function standAt(site: Site, outline: Outline, v0: number, b: number): Pt[] {
  const [aMin] = extent(outline, [1, 0]);
  const [bMin] = extent(outline, [0, 1]);
  return outline.map(([a, ob]) => at(site, v0 + a - aMin, b + ob - bMin));
}

/**
 * The outline at the first depth (`b` of its box's front) where it fits, at the first of `choose(lo, hi)`'s
 * positions along the block that keeps clear of `taken`.
 */
function placeBox(
  site: Site,
  outline: Outline,
  setbacks: Setbacks,
  taken: readonly Box[],
  gap: number,
  depths: Iterable<number>,
  choose: (lo: number, hi: number) => number[],
): Pt[] | undefined {
  const planes = insetPlanes(site.polygon, (tag) => (tag === LOT_LINE ? setbacks.side : setbacks.street));
  const [aMin, aMax] = extent(outline, [1, 0]);
  const [bMin, bMax] = extent(outline, [0, 1]);
  for (const b of depths) {
    const room = span(planes, site.edge + site.front * b, site.edge + site.front * (b + bMax - bMin), aMax - aMin);
    if (!room) continue;
    for (const v0 of choose(room[0], room[1])) {
      const local = standAt(site, outline, v0, b);
      if (taken.every((t) => apart(t, box(local), gap))) return local;
    }
  }
  return undefined;
}

/**
 * The main building: centred on the lot (give or take a metre), `setback` back, or as close to that as the lot
 * allows; moved further back, then shrunk, until it fits.
 */
function placeMain(
  site: Site,
  draw: () => Outline,
  setback: number,
  setbacks: Setbacks,
  random: Random,
): Pt[] | undefined {
  const jitter = random.between(-1, 1);
  for (const shrink of [1, 0.85, 0.72, 0.6, 0.5]) {
    const outline = draw().map(([a, b]) => [a * shrink, b * shrink] as Pt);
    const [aMin, aMax] = extent(outline, [1, 0]);
    const [bMin, bMax] = extent(outline, [0, 1]);
    const centred = site.vMiddle + jitter - (aMax - aMin) / 2;
    const local = placeBox(
      site,
      outline,
      setbacks,
      [],
      0,
      steps(setback + Math.min(bMin, 0), site.depth - (bMax - bMin), 1.5),
      (lo, hi) => [clamp(centred, lo, hi)],
    );
    if (local) return local;
  }
  return undefined;
}
