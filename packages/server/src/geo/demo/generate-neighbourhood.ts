import type { Feature, Point, Polygon, Position } from "../types.js";
import { type Frontage, frontageOf, houseNumbers } from "./addresses.js";
import { type PlannedBuilding, placeBuildings, placeRowhouses } from "./buildings.js";
import { planCreek } from "./creek.js";
import { outlyingStation, planHydrants } from "./fire-protection.js";
import { assignUses, type LotUse } from "./land-use.js";
import { DEMO_LOCATION, projection } from "./location.js";
import { type LotPlan, planLots } from "./lots.js";
import { counterClockwise, type Pt } from "./planar.js";
import { Random } from "./prng.js";
import { MAX_BLOCKS, type PlannedStreet, planStreets } from "./street-plan.js";
import { DEMO_DATASET, type DemoAddress, type DemoNeighbourhood, type DemoStreet } from "./types.js";

export const DEFAULT_SEED = 1;
export const DEFAULT_BLOCKS = 6;

export interface NeighbourhoodOptions {
  /** Any integer; the same seed gives byte-identical output. Default 1. */
  seed?: number;
  /** Blocks along each side, 1 to 10. Default 6 (about 440 parcels). */
  blocks?: number;
}

const VACANT: LotUse = { use: "vacant", duplex: false, units: 0, fireStation: false };

/**
 * A plausible small-town American neighbourhood, made up from a seed so that `lotline demo` has property data
 * on a machine with no network: parcels, building footprints, streets, addresses, a creek's flood zones, fire
 * stations and hydrants, as WGS 84 GeoJSON at a real place (`DEMO_LOCATION`: Story County, Iowa). Every feature
 * says `generated: true`, and `dataset` says it is not real data. Pure and deterministic: one seed, one output,
 * byte for byte. Each stage draws from its own stream of the seed, so changing how buildings are drawn leaves
 * the streets and lots where they were.
 *
 * @example
 * const town = generateNeighbourhood({ seed: 7 });
 * town.parcels[0]?.properties.parcel_id; //= "DEMO-0001"
 */
export function generateNeighbourhood(options: NeighbourhoodOptions = {}): DemoNeighbourhood {
  const seed = options.seed ?? DEFAULT_SEED;
  const blocks = options.blocks ?? DEFAULT_BLOCKS;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, not ${seed}`);
  if (!Number.isInteger(blocks) || blocks < 1 || blocks > MAX_BLOCKS) {
    throw new RangeError(`blocks must be an integer from 1 to ${MAX_BLOCKS}, not ${blocks}`);
  }
  const stream = (label: string) => new Random(seed, label);

  const plan = planStreets(blocks, stream("streets"));
  const creek = planCreek(plan, stream("creek"));
  const lotPlan = planLots(plan, creek.distanceTo, stream("lots"));
  const { lots } = lotPlan;
  const uses = assignUses(lots, stream("uses"));
  const frontages = lots.map((lot) => frontageOf(lot, plan));
  const { onLots, terrace } = build(lotPlan, uses, frontages, stream("buildings"));
  const numbers = houseNumbers(frontages, uses);

  const toLonLat = projection(plan.rotation);
  const ring = (points: readonly Pt[]): Position[][] => [closedRing(counterClockwise(points).map(toLonLat))];
  const parcelId = (k: number) => `DEMO-${String(k + 1).padStart(4, "0")}`;
  const town = { city: DEMO_LOCATION.city, state: DEMO_LOCATION.stateCode, postcode: DEMO_LOCATION.postcode };
  const addresses: DemoAddress[] = lots.flatMap((_, k) => {
    const base = { parcel_id: parcelId(k), number: numbers[k] ?? "", street: frontages[k]?.street.full ?? "" };
    const units = uses[k]?.units ?? 0;
    if (units === 0) return [{ ...base, ...town }];
    return Array.from({ length: units }, (_, u) => ({ ...base, unit: `${u + 1}`, ...town }));
  });

  // Fire station 1 stands on its lot in the plat (if one was chosen), station 2 out along the diagonal road.
  const stations: { at: Pt; address: string }[] = [];
  const stationLot = uses.findIndex((use) => use.fireStation);
  if (stationLot >= 0) {
    const address = addresses.find((a) => a.parcel_id === parcelId(stationLot));
    const outline = onLots[stationLot]?.[0]?.ring ?? lots[stationLot]?.ring ?? [];
    stations.push({ at: centroid(outline), address: `${address?.number} ${address?.street}` });
  }
  stations.push(outlyingStation(plan.diagonal, stream("stations")));

  return {
    dataset: { ...DEMO_DATASET },
    parcels: lots.map((lot, k) =>
      polygonFeature(ring(lot.ring), { parcel_id: parcelId(k), land_use: uses[k]?.use ?? "vacant", generated: true }),
    ),
    buildings: [...onLots.flat(), ...terrace].map((b, k) =>
      polygonFeature(ring(b.ring), {
        building_id: `DEMO-B${String(k + 1).padStart(4, "0")}`,
        kind: b.kind,
        generated: true,
      }),
    ),
    streets: plan.streets.map((street) => streetOf(street, toLonLat)),
    addresses,
    floodZones: creek.zones.map((zone) => polygonFeature(ring(zone.ring), zone.properties)),
    fireStations: stations.map((station, k) =>
      pointFeature(toLonLat(station.at), {
        SITE_NAME: `${DEMO_LOCATION.city} FIRE STATION ${k + 1}`,
        ADDRESS: station.address,
        generated: true,
      }),
    ),
    hydrants: planHydrants(plan, stream("hydrants")).map((p, k) =>
      pointFeature(toLonLat(p), { hydrant_id: `DEMO-H${String(k + 1).padStart(4, "0")}`, generated: true }),
    ),
  };
}

/**
 * Buildings for every lot, then the rowhouse terrace. A lot meant for a house or apartments that found no room
 * for one (a sliver of a triangle by the diagonal road, say) becomes vacant, as do the rowhouse lots if the
 * terrace found none; `uses` is updated to match.
 */
function build(
  { lots, rowhouses }: LotPlan,
  uses: LotUse[],
  frontages: readonly Frontage[],
  random: Random,
): { onLots: PlannedBuilding[][]; terrace: PlannedBuilding[] } {
  const onLots = lots.map((lot, k) => placeBuildings(lot, uses[k] ?? VACANT, frontages[k]?.front ?? 1, random));
  const terrace = rowhouses ? placeRowhouses(rowhouses, random) : [];
  lots.forEach((lot, k) => {
    const wantedHouse =
      lot.role === "residential" && (uses[k]?.use === "residential" || uses[k]?.use === "multifamily");
    if ((wantedHouse && onLots[k]?.length === 0) || (lot.role === "rowhouse" && terrace.length === 0)) uses[k] = VACANT;
  });
  return { onLots, terrace };
}

function streetOf(street: PlannedStreet, toLonLat: (p: Pt) => Position): DemoStreet {
  const stops = [
    street.start,
    ...street.crossings.filter((t) => t > street.start + 0.01 && t < street.end - 0.01),
    street.end,
  ];
  return {
    name: street.name,
    ...(street.directional ? { directional: street.directional } : {}),
    suffix: street.suffix,
    full: street.full,
    width: street.width,
    line: {
      type: "LineString",
      coordinates: stops.map((t) =>
        toLonLat([street.origin[0] + t * street.dir[0], street.origin[1] + t * street.dir[1]]),
      ),
    },
  };
}

/** The ring closed, less any position that rounding made equal to its neighbour. */
function closedRing(ring: Position[]): Position[] {
  const out = ring.filter((p, i) => {
    const next = ring[(i + 1) % ring.length];
    return !(next && next[0] === p[0] && next[1] === p[1]);
  });
  const first = out[0];
  return first ? [...out, first] : out;
}

function centroid(ring: readonly Pt[]): Pt {
  const sum = ring.reduce<Pt>((a, p) => [a[0] + p[0], a[1] + p[1]], [0, 0]);
  return [sum[0] / ring.length, sum[1] / ring.length];
}

function polygonFeature<P>(coordinates: Position[][], properties: P): Feature<Polygon, P> {
  return { type: "Feature", properties, geometry: { type: "Polygon", coordinates } };
}

function pointFeature<P>(coordinates: Position, properties: P): Feature<Point, P> {
  return { type: "Feature", properties, geometry: { type: "Point", coordinates } };
}
