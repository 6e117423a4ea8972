import { add, distance, extent, fromAngle, left, type Pt, scale, unit } from "./planar.js";
import type { Random } from "./prng.js";
import { pointAt, type StreetPlan } from "./street-plan.js";

/** FEMA National Flood Hazard Layer attributes (S_FLD_HAZ_AR), the ones a flood look-up reads. */
export interface FloodZoneProperties {
  fld_ar_id: string;
  fld_zone: "AE" | "X";
  zone_subty?: "0.2 PCT ANNUAL CHANCE FLOOD HAZARD";
  sfha_tf: "T" | "F";
  generated: true;
}

export interface CreekPlan {
  centreline: Pt[];
  /** The 1 %-annual-chance (AE) corridor and the two 0.2 % (shaded X) bands beside it; they share their edges. */
  zones: { ring: Pt[]; properties: FloodZoneProperties }[];
  /** Metres from `p` to the nearest sampled point of the centreline (within half the 8 m step of the truth). */
  distanceTo(p: Pt): number;
}

const STEP = 8;

/**
 * A meandering creek across part of the neighbourhood and its flood zones. The centreline is a sine wave
 * `y = A·sin(k·s + φ)` off a straight course; its zones are offsets along the wave's normals. The sharpest bend
 * has radius 1/(A·k²) ≥ 117 m, more than the widest offset (≤ 72 m), so no zone's edge folds over itself.
 */
export function planCreek(plan: StreetPlan, random: Random): CreekPlan {
  const corners = [...plan.northSouth.slice(0, 1), ...plan.northSouth.slice(-1)].flatMap((s) => [
    pointAt(s, s.start),
    pointAt(s, s.end),
  ]);
  const course = fromAngle(random.between(-0.5, 0.5) + (random.chance(0.5) ? 0 : Math.PI / 2));
  const normal = left(course);
  const [low, high] = extent(corners, normal);
  const centre = scale(normal, (low + high) / 2 + random.sign() * random.between(0.08, 0.28) * (high - low));
  const reach = Math.max(...corners.map((c) => distance(c, centre))) + 300;

  const amplitude = random.between(20, 38);
  const k = (2 * Math.PI) / random.between(420, 620);
  const phase = random.between(0, 2 * Math.PI);
  const inner = random.between(22, 32);
  const outer = inner + random.between(25, 40);

  const steps = Math.ceil((2 * reach) / STEP);
  const samples = Array.from({ length: steps + 1 }, (_, n) => {
    const s = -reach + n * STEP;
    const y = amplitude * Math.sin(k * s + phase);
    const slope = amplitude * k * Math.cos(k * s + phase);
    const at = add(centre, add(scale(course, s), scale(normal, y)));
    const side = unit(add(scale(course, -slope), normal));
    return { at, side };
  });
  const offset = (h: number): Pt[] => samples.map(({ at, side }) => add(at, scale(side, h)));
  const [aeLeft, aeRight, xLeft, xRight] = [offset(inner), offset(-inner), offset(outer), offset(-outer)];
  const centreline = samples.map(({ at }) => at);
  const shaded = {
    fld_zone: "X",
    zone_subty: "0.2 PCT ANNUAL CHANCE FLOOD HAZARD",
    sfha_tf: "F",
    generated: true,
  } as const;
  return {
    centreline,
    zones: [
      {
        ring: [...aeLeft, ...[...aeRight].reverse()],
        properties: { fld_ar_id: "DEMO-FLD-1", fld_zone: "AE", sfha_tf: "T", generated: true },
      },
      { ring: [...xLeft, ...[...aeLeft].reverse()], properties: { fld_ar_id: "DEMO-FLD-2", ...shaded } },
      { ring: [...aeRight, ...[...xRight].reverse()], properties: { fld_ar_id: "DEMO-FLD-3", ...shaded } },
    ],
    distanceTo: (p) => Math.min(...centreline.map((c) => distance(c, p))),
  };
}
