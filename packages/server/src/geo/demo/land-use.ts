import { LOT_LINE, points } from "./convex.js";
import type { PlannedLot } from "./lots.js";
import { signedArea } from "./planar.js";
import type { Random } from "./prng.js";

export type LandUse = "residential" | "multifamily" | "commercial" | "public" | "park" | "vacant";

export interface LotUse {
  use: LandUse;
  /** A two-family house, addressed with a number range such as `12-14`. */
  duplex: boolean;
  /** Units of the one multi-unit building (each gets an address); 0 elsewhere. */
  units: number;
  fireStation: boolean;
}

/**
 * Land use for each lot: the park and commercial lots as cut; then one fire station (a commercial lot, a
 * corner one if possible), one multi-unit building, two or three duplexes, and about 3 % of houses' lots
 * left vacant.
 */
export function assignUses(lots: readonly PlannedLot[], random: Random): LotUse[] {
  const uses: LotUse[] = lots.map((lot) => ({
    use:
      lot.role === "park"
        ? "park"
        : lot.role === "commercial" || lot.role === "shopping"
          ? "commercial"
          : "residential",
    duplex: false,
    units: 0,
    fireStation: false,
  }));
  const area = (k: number) => Math.abs(signedArea(points((lots[k] as PlannedLot).polygon)));
  const streets = (k: number) =>
    new Set((lots[k] as PlannedLot).polygon.map((v) => v.tag).filter((t) => t !== LOT_LINE)).size;
  const indices = lots.map((_, k) => k);
  const houseLot = (k: number) =>
    lots[k]?.role === "residential" && !uses[k]?.fireStation && !uses[k]?.units && !uses[k]?.duplex;

  const commercial = indices.filter((k) => lots[k]?.role === "commercial" && area(k) >= 700);
  const stations = commercial.filter((k) => streets(k) >= 2);
  const stationChoices =
    stations.length > 0
      ? stations
      : commercial.length > 0
        ? commercial
        : indices.filter((k) => houseLot(k) && area(k) >= 650);
  if (stationChoices.length > 0) {
    const k = random.pick(stationChoices);
    uses[k] = { use: "public", duplex: false, units: 0, fireStation: true };
  }
  const apartments = indices.filter((k) => houseLot(k) && area(k) >= 650);
  if (apartments.length > 0) {
    const k = random.pick(apartments);
    uses[k] = { use: "multifamily", duplex: false, units: random.int(4, 8), fireStation: false };
  }
  const duplexes = random.shuffle(indices.filter((k) => houseLot(k) && area(k) >= 520)).slice(0, random.int(2, 3));
  for (const k of duplexes) uses[k] = { use: "residential", duplex: true, units: 0, fireStation: false };
  for (const k of indices)
    if (houseLot(k) && random.chance(0.03)) uses[k] = { use: "vacant", duplex: false, units: 0, fireStation: false };
  return uses;
}
