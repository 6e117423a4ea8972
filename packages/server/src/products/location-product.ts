import { coastDistance } from "./location/coastline.js";
import { type CountyAndState, countyAt } from "./location/us-counties.js";
import type { Product, ProductResult, Provenance } from "./product.js";
import { round } from "./round.js";

export interface LocationResult extends ProductResult {
  /** The county or equivalent (parish, borough, independent city, …) holding the point; null outside the US. */
  county: CountyAndState["county"] | null;
  /** The state (or DC, or a territory): FIPS code, name, USPS code; null outside the US. */
  state: CountyAndState["state"] | null;
  /** Distance to the nearest coastline, m; coarse (see the provenance note). */
  coast_distance_m: number;
  /** Whether the point lies on land as Natural Earth draws it (false at sea, and on some shores and piers). */
  on_land: boolean;
}

export const CENSUS_BOUNDARIES: Provenance = {
  dataset: "US counties and states (us-atlas counties-10m.json)",
  provider: "US Census Bureau cartographic boundaries 2017, via us-atlas",
  license: "Public domain (US Government work); us-atlas ISC",
  vintage: "2017",
  note: "simplified and quantized to about 100 m: points within that of a county line may be placed in the neighbour",
};

export const NATURAL_EARTH_LAND: Provenance = {
  dataset: "Natural Earth 1:10m land (world-atlas land-10m.json)",
  provider: "Natural Earth, via world-atlas",
  license: "Public domain; world-atlas ISC",
  vintage: "Natural Earth 4.1.0",
  note:
    "the coastline is drawn at 1:10,000,000 and quantized: distances are good to a few kilometres, and estuaries, " +
    "harbours and small islands may be missing",
};

/**
 * `location`: the county and state at the order's point and how far it lies from the coast. Needs no parcel and
 * no database: the boundaries ship with the service (us-atlas, world-atlas), loaded on first use and kept.
 */
export const locationProduct: Product<LocationResult> = async (_source, input) => {
  const [place, coast] = await Promise.all([countyAt(input.point), coastDistance(input.point)]);
  return {
    county: place?.county ?? null,
    state: place?.state ?? null,
    coast_distance_m: round(coast.distanceM, 0),
    on_land: coast.onLand,
    provenance: [CENSUS_BOUNDARIES, NATURAL_EARTH_LAND],
    computed_at: new Date().toISOString(),
  };
};
