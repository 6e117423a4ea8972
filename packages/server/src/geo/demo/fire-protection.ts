import { add, left, type Pt, scale } from "./planar.js";
import type { Random } from "./prng.js";
import { type PlannedStreet, pointAt, type StreetPlan } from "./street-plan.js";

export interface FireStationProperties {
  SITE_NAME: string;
  ADDRESS: string;
  generated: true;
}

export interface HydrantProperties {
  hydrant_id: string;
  generated: true;
}

/** Hydrants every 90–110 m along each street, a metre inside its right-of-way, alternating sides. */
export function planHydrants(plan: StreetPlan, random: Random): Pt[] {
  const out: Pt[] = [];
  for (const street of plan.streets) {
    let side = random.sign();
    for (let t = street.start + random.between(20, 60); t < street.end; t += random.between(90, 110)) {
      out.push(add(pointAt(street, t), scale(left(street.dir), side * (street.width / 2 - 1))));
      side = -side;
    }
  }
  return out;
}

/**
 * The second fire station, out along the diagonal road beyond the plat (the first stands on a lot inside it):
 * where it lies and its address, numbered on as the road's hundreds would run.
 */
export function outlyingStation(road: PlannedStreet, random: Random): { at: Pt; address: string } {
  const beyond = random.between(500, 1100);
  const at = add(pointAt(road, road.end + beyond), scale(left(road.dir), road.width / 2 + 25));
  const hundreds = road.hundreds.length + Math.floor(beyond / 130);
  return { at, address: `${100 * hundreds + 2 * random.int(0, 20) + 1} ${road.full}` };
}
