import { type HalfPlane, leftOf, rightOf } from "./convex.js";
import { add, cross, dot, intersectLines, type Pt, scale, sub, unit } from "./planar.js";
import type { Random } from "./prng.js";

export type StreetSuffix = "ST" | "AVE" | "RD" | "LN" | "CT" | "PL" | "BLVD";

/** A street's centreline `origin + t·dir` for t in [start, end], in plane metres, with its name and width. */
export interface PlannedStreet {
  /** Position in `StreetPlan.streets`; lot edges on this street's right-of-way carry it as their tag. */
  index: number;
  family: "north-south" | "east-west" | "diagonal";
  directional?: "N";
  name: string;
  suffix: StreetSuffix;
  /** As written in an address: `N MAIN ST`. */
  full: string;
  /** Right-of-way width in metres; lots keep clear of half of it on each side of the centreline. */
  width: number;
  origin: Pt;
  dir: Pt;
  start: number;
  end: number;
  /** `t` of each crossing with another street, ascending. */
  crossings: number[];
  /** `t` of the crossings where house numbers start a new hundred. */
  hundreds: number[];
}

/** The street grid of a generated neighbourhood: a slightly irregular plat, turned a little, and one old diagonal road. */
export interface StreetPlan {
  /** Turn of the plat about the centre, radians counter-clockwise; applied when projecting. */
  rotation: number;
  streets: PlannedStreet[];
  /** West to east. */
  northSouth: PlannedStreet[];
  /** South to north. */
  eastWest: PlannedStreet[];
  diagonal: PlannedStreet;
  main: PlannedStreet;
}

const PRESIDENTS = [
  "WASHINGTON",
  "JEFFERSON",
  "LINCOLN",
  "MADISON",
  "ADAMS",
  "JACKSON",
  "MONROE",
  "GRANT",
  "FRANKLIN",
  "HARRISON",
  "GARFIELD",
  "CLEVELAND",
];
const TREES = [
  "MAPLE",
  "OAK",
  "ELM",
  "WALNUT",
  "CEDAR",
  "PINE",
  "BIRCH",
  "ASH",
  "CHESTNUT",
  "HICKORY",
  "WILLOW",
  "SPRUCE",
  "SYCAMORE",
];
const EAST_WEST_SUFFIXES: readonly StreetSuffix[] = ["ST", "ST", "ST", "AVE", "LN", "PL"];
const WIDTH: Record<StreetSuffix, number> = { ST: 18, AVE: 20, RD: 20, LN: 16, CT: 15, PL: 16, BLVD: 30 };
const MAIN_WIDTH = 24;

/** Most blocks a side: the name lists above must outlast the streets. */
export const MAX_BLOCKS = 10;

type Draft = Omit<PlannedStreet, "index" | "start" | "end" | "crossings" | "hundreds" | "full">;

/** Lays out `blocks` × `blocks` blocks: `blocks + 1` streets each way, and a diagonal across them. */
export function planStreets(blocks: number, random: Random): StreetPlan {
  const rotation = random.sign() * random.between(0.1, 0.24);
  const mainAt = Math.floor(blocks / 2);
  const boulevardAt =
    blocks >= 3 ? random.pick([...Array(blocks - 1).keys()].map((i) => i + 1).filter((i) => i !== mainAt)) : -1;
  const presidents = random.shuffle(PRESIDENTS);
  const trees = random.shuffle(TREES);

  const northSouthNames = Array.from({ length: blocks + 1 }, (_, i) => {
    if (i === mainAt) return { name: "MAIN", suffix: "ST" as const, width: MAIN_WIDTH, directional: "N" as const };
    const suffix: StreetSuffix = i === boulevardAt ? "BLVD" : random.chance(0.25) ? "ST" : "AVE";
    return { name: presidents[i] ?? ordinal(i + 1), suffix, width: WIDTH[suffix] };
  });
  // East–west streets are trees, or in some towns numbered from the south: 1ST ST, 2ND ST, …
  const numbered = random.chance(0.35);
  const eastWestNames = Array.from({ length: blocks + 1 }, (_, j) => {
    const suffix = numbered ? "ST" : random.pick(EAST_WEST_SUFFIXES);
    return { name: numbered ? ordinal(j + 1) : (trees[j] ?? ordinal(j + 1)), suffix, width: WIDTH[suffix] };
  });

  // Block widths (between north–south streets) hold two lot depths; lengths hold six or seven lots a side.
  const xs = positions(
    blocks,
    (i) => random.between(84, 96) + (widthOf(northSouthNames, i) + widthOf(northSouthNames, i + 1)) / 2 - 20,
  );
  const ys = positions(blocks, () => random.between(118, 160));
  const drafts: Draft[] = [
    ...northSouthNames.map(
      (street, i): Draft => ({
        family: "north-south",
        ...street,
        origin: [xs[i] ?? 0, 0],
        dir: unit([random.between(-0.012, 0.012), 1]),
      }),
    ),
    ...eastWestNames.map(
      (street, j): Draft => ({
        family: "east-west",
        ...street,
        origin: [0, ys[j] ?? 0],
        dir: unit([1, random.between(-0.02, 0.02)]),
      }),
    ),
  ];
  const angle = random.sign() * random.between(0.6, 0.95);
  const halfWidth = xs[blocks] ?? 0;
  const halfHeight = ys[blocks] ?? 0;
  drafts.push({
    family: "diagonal",
    name: "OLD MILL",
    suffix: "RD",
    width: WIDTH.RD,
    origin: [random.between(-0.3, 0.3) * halfWidth, random.between(-0.3, 0.3) * halfHeight],
    dir: [Math.cos(angle), Math.sin(angle)],
  });
  return finish(drafts, rotation);
}

/** `1ST`, `2ND`, `3RD`, `4TH`, … `11TH`, `12TH`, `13TH`, `21ST`. */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "TH" : (["TH", "ST", "ND", "RD"][n % 10] ?? "TH");
  return `${n}${suffix}`;
}

function widthOf(names: readonly { width: number }[], i: number): number {
  return names[i]?.width ?? 20;
}

/** `count + 1` positions `spacing(i)` apart, centred on zero. */
function positions(count: number, spacing: (i: number) => number): number[] {
  const out = [0];
  for (let i = 0; i < count; i++) out.push((out[i] ?? 0) + spacing(i));
  const middle = (out[count] ?? 0) / 2;
  return out.map((x) => x - middle);
}

function finish(drafts: Draft[], rotation: number): StreetPlan {
  const streets: PlannedStreet[] = drafts.map((draft, index) => ({
    ...draft,
    index,
    full: [draft.directional, draft.name, draft.suffix].filter(Boolean).join(" "),
    start: 0,
    end: 0,
    crossings: [],
    hundreds: [],
  }));
  const northSouth = streets.filter((s) => s.family === "north-south");
  const eastWest = streets.filter((s) => s.family === "east-west");
  const diagonal = streets.find((s) => s.family === "diagonal");
  const main = streets.find((s) => s.directional === "N");
  const [west, east, south, north] = [northSouth[0], northSouth.at(-1), eastWest[0], eastWest.at(-1)];
  if (!diagonal || !main || !west || !east || !south || !north) throw new Error("street plan is incomplete");

  // Grid streets run from the first cross street to the last; the diagonal across the whole plat.
  for (const street of northSouth) [street.start, street.end] = [at(street, south), at(street, north)];
  for (const street of eastWest) [street.start, street.end] = [at(street, west), at(street, east)];
  const inside: HalfPlane[] = [
    rightOf(west.origin, west.dir, 0, -1),
    leftOf(east.origin, east.dir, 0, -1),
    leftOf(south.origin, south.dir, 0, -1),
    rightOf(north.origin, north.dir, 0, -1),
  ];
  [diagonal.start, diagonal.end] = lineWithin(diagonal, inside);

  for (const street of streets) {
    for (const other of streets) {
      if (other === street || Math.abs(cross(street.dir, other.dir)) < 1e-9) continue;
      const t = at(street, other);
      const u = at(other, street);
      if (t < street.start - 1e-6 || t > street.end + 1e-6 || u < other.start - 1e-6 || u > other.end + 1e-6) continue;
      street.crossings.push(t);
      if (street.family === "diagonal" || (other.family !== "diagonal" && other.family !== street.family))
        street.hundreds.push(t);
    }
    street.crossings.sort((a, b) => a - b);
    street.hundreds.sort((a, b) => a - b);
  }
  return { rotation, streets, northSouth, eastWest, diagonal, main };
}

/** `t` along `street` where it meets `other`'s centreline. */
export function at(street: PlannedStreet, other: Pick<PlannedStreet, "origin" | "dir">): number {
  return dot(sub(intersectLines(street.origin, street.dir, other.origin, other.dir), street.origin), street.dir);
}

/** The point `t` metres along the street's centreline. */
export function pointAt(street: PlannedStreet, t: number): Pt {
  return add(street.origin, scale(street.dir, t));
}

/** The part of the street's line inside all the half-planes (Cyrus–Beck). */
function lineWithin(street: Draft, planes: readonly HalfPlane[]): [number, number] {
  let low = Number.NEGATIVE_INFINITY;
  let high = Number.POSITIVE_INFINITY;
  for (const { normal, offset } of planes) {
    const rate = dot(normal, street.dir);
    const bound = (offset - dot(normal, street.origin)) / rate;
    if (rate > 0) low = Math.max(low, bound);
    else high = Math.min(high, bound);
  }
  return [low, high];
}
