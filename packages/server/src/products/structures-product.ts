import { geodesicArea, toSquareFeet } from "../geo/geometry/index.js";
import type { Area } from "../geo/types.js";
import { lotOf } from "./lot.js";
import { lotStructures } from "./lot-structures.js";
import type { Product, ProductResult } from "./product.js";
import { provenanceOf, USER_DRAWN } from "./provenance.js";
import { round } from "./round.js";

export interface Structure {
  building_id: number;
  /** The publisher's id of the footprint. */
  source_id: string;
  footprint: Area;
  area_m2: number;
  area_ft2: number;
  /** The footprint's attributes as published (e.g. Cambridge's `TYPE`: `BLDG`, `OUTBLDG`). */
  attributes: Record<string, unknown>;
}

export interface StructuresResult extends ProductResult {
  /** The buildings on the lot, largest first. */
  structures: Structure[];
  count: number;
  /** The largest building; null on an empty lot. */
  primary_building_id: number | null;
  total_area_m2: number;
  total_area_ft2: number;
  /** Total footprint area ÷ lot area (0 on an empty lot); whole footprints count, even a part over the lot line. */
  lot_coverage: number;
  boundary_source: "user" | "imported";
}

/**
 * `structures`: every building on the lot (see {@link lotStructures}), the largest as the primary one, and how
 * much of the lot they cover. Fails with `no_parcel_at_location` when there is no lot.
 */
export const structuresProduct: Product<StructuresResult> = async (source, input) => {
  const lot = lotOf(input);
  const buildings = await lotStructures(source, lot);
  const total = buildings.reduce((sum, building) => sum + building.areaM2, 0);
  const lotArea = geodesicArea(lot.boundary);
  const lotDatasets = lot.boundarySource === "imported" && lot.parcel ? [lot.parcel.datasetId] : [];
  const imported = await provenanceOf(source, [...buildings.map((building) => building.datasetId), ...lotDatasets]);
  return {
    structures: buildings.map((building) => ({
      building_id: building.buildingId,
      source_id: building.sourceId,
      footprint: building.footprint,
      area_m2: round(building.areaM2),
      area_ft2: round(toSquareFeet(building.areaM2)),
      attributes: building.attributes,
    })),
    count: buildings.length,
    primary_building_id: buildings[0]?.buildingId ?? null,
    total_area_m2: round(total),
    total_area_ft2: round(toSquareFeet(total)),
    lot_coverage: lotArea > 0 ? round(total / lotArea, 4) : 0,
    boundary_source: lot.boundarySource,
    provenance: lot.boundarySource === "user" ? [USER_DRAWN, ...imported] : imported,
    computed_at: new Date().toISOString(),
  };
};
