import {
  bigSquare,
  clip,
  clipAll,
  type EdgeTag,
  type HalfPlane,
  LOT_LINE,
  leftOf,
  points,
  rightOf,
  type TaggedPolygon,
  taggedLength,
} from "./convex.js";
import { add, diameter, dot, extent, type Pt, scale, signedArea, unit } from "./planar.js";
import type { Random } from "./prng.js";
import type { PlannedStreet, StreetPlan } from "./street-plan.js";
import { weld } from "./weld.js";

/**
 * A block's own axes: `along` follows its north–south streets, `across` points east. Lots are cut across
 * `along`; buildings are laid out square to these axes.
 */
export interface BlockFrame {
  along: Pt;
  across: Pt;
}

/** What a lot was cut for; land use is settled later (see `land-use.ts`). */
export type LotRole = "residential" | "commercial" | "rowhouse" | "park" | "shopping";

export interface PlannedLot {
  block: number;
  frame: BlockFrame;
  /** The lot, convex, in plane metres, each edge tagged with the street whose right-of-way it borders. */
  polygon: TaggedPolygon;
  /** The same ring welded to its neighbours (see `weld`), for output. */
  ring: Pt[];
  /** The street the lot's row faces, if it was cut from a row. */
  rowStreet: number | undefined;
  /** +1 when the row's street is on the lot's low-`across` side (west), -1 when on its east. */
  rowFront: 1 | -1;
  role: LotRole;
}

/** Rowhouses drawn across a run of narrow lots: `cuts` are the run's lot lines along the block, ends included. */
export interface RowhouseRun {
  lots: PlannedLot[];
  frame: BlockFrame;
  cuts: number[];
  row: TaggedPolygon;
  rowFront: 1 | -1;
}

export interface LotPlan {
  lots: PlannedLot[];
  rowhouses: RowhouseRun | undefined;
}

/** A block's row: the strip between one street and the block's rear line (or the diagonal road). */
interface Row {
  block: number;
  frame: BlockFrame;
  polygon: TaggedPolygon;
  street: PlannedStreet;
  front: 1 | -1;
  role: "residential" | "commercial";
  /** Whole (no diagonal through its block) and long enough for a run of rowhouses. */
  rowhouseCandidate: boolean;
}

/**
 * Cuts every block into lots. Blocks lie between the streets' rights-of-way; the diagonal road takes its strip
 * out of the blocks it crosses. Each block splits at a rear line into two rows facing their north–south
 * streets, and each row into lots of varied widths, the first and last (corner) lots wider. One block near the
 * creek is a park and one beside Main Street a shopping centre, each a single parcel; rows facing Main Street
 * are commercial; one row holds a run of narrow rowhouse lots. A lot too small or too thin to use, or without
 * five metres of street frontage, is merged with its neighbour.
 */
export function planLots(plan: StreetPlan, nearCreek: (p: Pt) => number, random: Random): LotPlan {
  const blocks = plan.northSouth.length - 1;
  const wholeBlocks: { block: number; frame: BlockFrame; polygon: TaggedPolygon; cut: boolean; i: number }[] = [];
  for (let j = 0; j < blocks; j++) {
    for (let i = 0; i < blocks; i++) {
      const [west, east, south, north] = [
        plan.northSouth[i],
        plan.northSouth[i + 1],
        plan.eastWest[j],
        plan.eastWest[j + 1],
      ];
      if (!west || !east || !south || !north) continue;
      const polygon = clipAll(bigSquare(), [
        rightOf(west.origin, west.dir, west.width / 2, west.index),
        leftOf(east.origin, east.dir, east.width / 2, east.index),
        leftOf(south.origin, south.dir, south.width / 2, south.index),
        rightOf(north.origin, north.dir, north.width / 2, north.index),
      ]);
      const along = unit(add(west.dir, east.dir));
      const frame = { along, across: [along[1], -along[0]] as Pt };
      // Cut unless wholly on one side of the diagonal's right-of-way: even a corner it grazes is cut off.
      const cut = !diagonalSides(plan.diagonal).some((side) =>
        polygon.every(({ p }) => dot(side.normal, p) >= side.offset),
      );
      wholeBlocks.push({ block: j * blocks + i, frame, polygon, cut, i });
    }
  }

  // Special blocks: a park where the creek runs closest, a shopping centre on Main Street.
  const mainAt = plan.northSouth.indexOf(plan.main);
  const plain = wholeBlocks.filter((b) => !b.cut);
  const park = plain
    .filter((b) => b.i !== mainAt && b.i !== mainAt - 1)
    .map((b) => ({ b, d: nearCreek(centre(points(b.polygon))) }))
    .filter(({ d }) => d < 70)
    .sort((x, y) => x.d - y.d)[0]?.b;
  const shoppingChoices = blocks >= 3 ? plain.filter((b) => b !== park && (b.i === mainAt || b.i === mainAt - 1)) : [];
  const shopping = shoppingChoices.length > 0 ? random.pick(shoppingChoices) : undefined;

  // Plat order: blocks south-west to north-east, a block's rows west then east.
  const plat: ({ whole: PlannedLot } | { row: Row })[] = [];
  for (const block of wholeBlocks) {
    if (block === park || block === shopping) {
      plat.push({ whole: wholeLot(block, block === park ? "park" : "shopping") });
      continue;
    }
    const i = block.i;
    const [west, east] = [plan.northSouth[i], plan.northSouth[i + 1]];
    if (!west || !east) continue;
    const [uMin, uMax] = extent(points(block.polygon), block.frame.across);
    const rear = (uMin + uMax) / 2 + random.between(-4, 4);
    for (const piece of block.cut ? diagonalPieces(block.polygon, plan.diagonal) : [block.polygon]) {
      const sides: [PlannedStreet, 1 | -1, HalfPlane][] = [
        [west, 1, { normal: scale(block.frame.across, -1), offset: -rear, tag: LOT_LINE }],
        [east, -1, { normal: block.frame.across, offset: rear, tag: LOT_LINE }],
      ];
      for (const [street, front, half] of sides) {
        const polygon = clip(piece, half);
        if (polygon.length === 0) continue;
        const [vMin, vMax] = extent(points(polygon), block.frame.along);
        plat.push({
          row: {
            block: block.block,
            frame: block.frame,
            polygon,
            street,
            front,
            role: street === plan.main ? "commercial" : "residential",
            rowhouseCandidate: !block.cut && street !== plan.main && vMax - vMin > 105,
          },
        });
      }
    }
  }

  const candidates = plat.flatMap((item) => ("row" in item && item.row.rowhouseCandidate ? [item.row] : []));
  const rowhouseRow = candidates.length > 0 ? random.pick(candidates) : undefined;
  let rowhouses: RowhouseRun | undefined;
  const lots: PlannedLot[] = [];
  for (const item of plat) {
    if ("whole" in item) {
      lots.push(item.whole);
      continue;
    }
    const row = item.row;
    const cut = row === rowhouseRow ? cutRowhouseRow(row, random) : undefined;
    if (cut) {
      rowhouses = cut.run;
      lots.push(...cut.lots);
    } else {
      lots.push(...cutRow(row, widths(row, random)).map((polygon) => rowLot(row, polygon, row.role)));
    }
  }
  for (const block of new Set(lots.map((lot) => lot.block))) {
    const inBlock = lots.filter((lot) => lot.block === block);
    weld(inBlock.map((lot) => points(lot.polygon))).forEach((ring, k) => {
      (inBlock[k] as PlannedLot).ring = ring;
    });
  }
  return { lots, rowhouses };
}

function area(polygon: TaggedPolygon): number {
  return Math.abs(signedArea(points(polygon)));
}

function centre(ring: readonly Pt[]): Pt {
  const sum = ring.reduce((acc, p) => add(acc, p), [0, 0] as Pt);
  return scale(sum, 1 / ring.length);
}

/** The block's parts on either side of the diagonal road's right-of-way (one or two, or none). */
function diagonalPieces(polygon: TaggedPolygon, diagonal: PlannedStreet): TaggedPolygon[] {
  return diagonalSides(diagonal)
    .map((side) => clip(polygon, side))
    .filter((piece) => piece.length > 0);
}

function diagonalSides(diagonal: PlannedStreet): HalfPlane[] {
  return [
    leftOf(diagonal.origin, diagonal.dir, diagonal.width / 2, diagonal.index),
    rightOf(diagonal.origin, diagonal.dir, diagonal.width / 2, diagonal.index),
  ];
}

function wholeLot(block: { block: number; frame: BlockFrame; polygon: TaggedPolygon }, role: LotRole): PlannedLot {
  return {
    block: block.block,
    frame: block.frame,
    polygon: block.polygon,
    ring: [],
    rowStreet: undefined,
    rowFront: 1,
    role,
  };
}

function rowLot(row: Row, polygon: TaggedPolygon, role: LotRole): PlannedLot {
  return {
    block: row.block,
    frame: row.frame,
    polygon,
    ring: [],
    rowStreet: row.street.index,
    rowFront: row.front,
    role,
  };
}

/** Lot widths along a row, corner lots a fifth wider, summing to the row's length. */
function widths(row: Row, random: Random, length = rowLength(row)): number[] {
  const [low, high] = row.role === "commercial" ? [24, 40] : [14.5, 20];
  const count = Math.max(1, Math.round(length / random.between(low, high)));
  const raw = Array.from(
    { length: count },
    (_, k) => random.between(0.8, 1.25) * (k === 0 || k === count - 1 ? 1.2 : 1),
  );
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => (w * length) / total);
}

function rowLength(row: Row): number {
  const [vMin, vMax] = extent(points(row.polygon), row.frame.along);
  return vMax - vMin;
}

/** Cuts the row at the given widths; merges any lot that comes out unusable into a neighbour. */
function cutRow(row: Row, lotWidths: number[]): TaggedPolygon[] {
  const cuts = cutsAt(row, lotWidths);
  for (;;) {
    const lots = slabs(row, cuts);
    const bad = lots.findIndex((lot) => !usable(lot));
    if (bad < 0) return lots;
    if (cuts.length === 0) return [];
    // Remove the cut between the bad lot and its smaller neighbour.
    const before = bad - 1;
    const after = bad + 1;
    const mergeBefore =
      after >= lots.length || (before >= 0 && area(lots[before] as TaggedPolygon) < area(lots[after] as TaggedPolygon));
    cuts.splice(mergeBefore ? bad - 1 : bad, 1);
  }
}

/** Where lots of these widths, laid from the row's start, meet: one position fewer than lots. */
function cutsAt(row: Row, lotWidths: readonly number[]): number[] {
  const [vMin] = extent(points(row.polygon), row.frame.along);
  const cuts: number[] = [];
  let v = vMin;
  for (const w of lotWidths.slice(0, -1)) {
    v += w;
    cuts.push(v);
  }
  return cuts;
}

/** The row cut at the given positions along the block. */
function slabs(row: Row, cuts: readonly number[]): TaggedPolygon[] {
  const { along } = row.frame;
  const out: TaggedPolygon[] = [];
  for (let k = 0; k <= cuts.length; k++) {
    const planes: HalfPlane[] = [];
    const low = cuts[k - 1];
    const high = cuts[k];
    if (low !== undefined) planes.push({ normal: along, offset: low, tag: LOT_LINE });
    if (high !== undefined) planes.push({ normal: scale(along, -1), offset: -high, tag: LOT_LINE });
    out.push(clipAll(row.polygon, planes));
  }
  return out;
}

/** Big enough to build a house on (a rowhouse needs less), not a sliver, and five metres on one street. */
function usable(lot: TaggedPolygon, minimumArea = 260): boolean {
  if (lot.length === 0) return false;
  const a = area(lot);
  const tags = new Set<EdgeTag>(lot.map((v) => v.tag).filter((tag) => tag !== LOT_LINE));
  const frontage = Math.max(0, ...[...tags].map((tag) => taggedLength(lot, tag)));
  return a >= minimumArea && a / diameter(points(lot)) >= 5 && frontage >= 5;
}

/**
 * A row with a run of six to eight narrow lots (6–7.4 m) after its corner lot, for rowhouses; `undefined` when
 * the row is too short or a lot would come out unusable.
 */
function cutRowhouseRow(row: Row, random: Random): { run: RowhouseRun; lots: PlannedLot[] } | undefined {
  const length = rowLength(row);
  const corner = random.between(15, 19);
  const run = Array.from({ length: random.int(6, 8) }, () => random.between(6, 7.4));
  const rest = length - corner - run.reduce((a, b) => a + b, 0);
  if (rest < 16) return undefined;
  const lotWidths = [corner, ...run, ...widths(row, random, rest)];
  const cuts = cutsAt(row, lotWidths);
  const polygons = slabs(row, cuts);
  if (!polygons.every((lot) => usable(lot, 150))) return undefined;
  const lots = polygons.map((polygon, k) =>
    rowLot(row, polygon, k >= 1 && k <= run.length ? "rowhouse" : "residential"),
  );
  return {
    lots,
    run: {
      lots: lots.slice(1, run.length + 1),
      frame: row.frame,
      cuts: cuts.slice(0, run.length + 1),
      row: row.polygon,
      rowFront: row.front,
    },
  };
}
