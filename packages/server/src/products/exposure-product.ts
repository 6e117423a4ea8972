import { buildingsNear } from "../geo/queries/buildings-near.js";
import { neighboursAround } from "../geo/queries/neighbours-around.js";
import type { Building } from "../geo/store/geo-rows.js";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import { lotOf } from "./lot.js";
import { lotStructures } from "./lot-structures.js";
import type { Product, ProductResult } from "./product.js";
import { provenanceOf } from "./provenance.js";
import { round } from "./round.js";

/** The defensible-space zones counted around each structure, metres edge to edge. */
export const EXPOSURE_ZONES_M = [10, 30, 100] as const;

/** How far the search for the nearest other structure goes: from the last zone, doubling, up to this. */
export const MAX_SEARCH_M = 3200;

export interface StructureExposure {
  building_id: number;
  /** The nearest other building on any parcel, wall to wall; null when none stands within `MAX_SEARCH_M`. */
  nearest_structure: { building_id: number; distance_m: number } | null;
  /** Other buildings within 10, 30 and 100 m (touching counts as 0 m); each zone includes the nearer ones. */
  within_10_m: number;
  within_30_m: number;
  within_100_m: number;
}

export interface ExposureResult extends ProductResult {
  /** One entry per structure of the lot, in the `structures` product's order (largest first). */
  structures: StructureExposure[];
  /** The least of the structures' nearest distances; null when the lot has no structure or none has a neighbour. */
  nearest_structure_m: number | null;
  /** How far the search for a nearest structure went before giving up. */
  search_radius_m: number;
}

/**
 * `exposure`: how close other buildings stand to each building of the lot (see `structures`) — the nearest one
 * on any parcel, the lot's own included, and how many stand within 10, 30 and 100 m — the distances fire spreads
 * over. Distances are edge to edge on WGS 84. The answer is only as complete as the building footprints imported:
 * near the edge of their coverage the nearest building may be missing. Fails with `no_parcel_at_location` when
 * there is no lot.
 */
export const exposureProduct: Product<ExposureResult> = async (source, input) => {
  const buildings = await lotStructures(source, lotOf(input));
  // Each building's neighbours are looked up at once: on PostgreSQL, on connections of their own.
  const exposures = await Promise.all(buildings.map((building) => exposureOf(source, building)));
  const structures = exposures.map(({ exposure }) => exposure);
  const datasetIds = [
    ...buildings.map((building) => building.datasetId),
    ...exposures.flatMap(({ neighbourDatasets }) => neighbourDatasets),
  ];
  const nearest = structures.flatMap((structure) => structure.nearest_structure?.distance_m ?? []);
  return {
    structures,
    nearest_structure_m: nearest.length > 0 ? Math.min(...nearest) : null,
    search_radius_m: MAX_SEARCH_M,
    provenance: await provenanceOf(source, datasetIds),
    computed_at: new Date().toISOString(),
  };
};

async function exposureOf(
  source: GeoSource,
  building: Building,
): Promise<{ exposure: StructureExposure; neighbourDatasets: number[] }> {
  const around = await neighboursAround(source, building, EXPOSURE_ZONES_M);
  let { nearest } = around;
  // No other building within the zones: the search goes on, wider each time.
  for (let radius = Math.max(...EXPOSURE_ZONES_M) * 2; nearest === undefined && radius <= MAX_SEARCH_M; radius *= 2) {
    [nearest] = (await buildingsNear(source, building.footprint, radius)).filter(
      (hit) => hit.building.buildingId !== building.buildingId,
    );
  }
  const [within10 = 0, within30 = 0, within100 = 0] = around.within;
  return {
    exposure: {
      building_id: building.buildingId,
      nearest_structure: nearest
        ? { building_id: nearest.building.buildingId, distance_m: round(nearest.distanceM) }
        : null,
      within_10_m: within10,
      within_30_m: within30,
      within_100_m: within100,
    },
    neighbourDatasets: [...around.datasetIds, ...(nearest ? [nearest.building.datasetId] : [])],
  };
}
