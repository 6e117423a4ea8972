import { geodesicArea, geodesicPerimeter, toSquareFeet } from "../geo/geometry/index.js";
import type { Area } from "../geo/types.js";
import { lotOf } from "./lot.js";
import type { Product, ProductResult } from "./product.js";
import { provenanceOf, USER_DRAWN } from "./provenance.js";
import { round } from "./round.js";

export interface ParcelResult extends ProductResult {
  /** The lot's boundary: the one the user drew, else the imported parcel's. */
  boundary: Area;
  boundary_source: "user" | "imported";
  /** The publisher's parcel id (APN, map-lot) of the imported parcel at the location; null where there is none. */
  source_id: string | null;
  area_m2: number;
  area_ft2: number;
  /** Length of the outline (exterior rings), m. */
  perimeter_m: number;
}

/**
 * `parcel`: the lot's boundary, its publisher's id, its area (WGS 84 ellipsoid) and perimeter. A drawn boundary
 * replaces the imported one (`boundary_source: "user"`) and the parcel's id stays with it. Fails with
 * `no_parcel_at_location` when there is neither.
 */
export const parcelProduct: Product<ParcelResult> = async (source, input) => {
  const lot = lotOf(input);
  const area = geodesicArea(lot.boundary);
  const imported = lot.parcel ? await provenanceOf(source, [lot.parcel.datasetId]) : [];
  return {
    boundary: lot.boundary,
    boundary_source: lot.boundarySource,
    source_id: lot.parcel?.sourceId ?? null,
    area_m2: round(area),
    area_ft2: round(toSquareFeet(area)),
    perimeter_m: round(geodesicPerimeter(lot.boundary)),
    provenance: lot.boundarySource === "user" ? [USER_DRAWN, ...imported] : imported,
    computed_at: new Date().toISOString(),
  };
};
