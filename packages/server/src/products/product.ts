import type { Parcel } from "../geo/store/geo-rows.js";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import type { Area, LonLat } from "../geo/types.js";

/** What every product is computed from: where the property is, its imported parcel, the user's boundary. */
export interface ProductInput {
  /** The property's location, `[lon, lat]` WGS 84: the geocoded address or the location the order gave. */
  readonly point: LonLat;
  /** The imported parcel at the point, if any. */
  readonly parcel: Parcel | undefined;
  /** The boundary the user redrew, already checked by {@link checkBoundary}; it replaces the parcel's. */
  readonly boundary?: Area;
}

/** Where a value came from, shown beside it: one entry per dataset that went into a product. */
export interface Provenance {
  /** The dataset's name as imported (`lotline import … --name`), or a fixed name for built-in and drawn data. */
  dataset: string;
  provider: string | null;
  license: string | null;
  vintage: string | null;
  /** Imported datasets: when the dataset's latest import finished (ISO 8601); null if none has finished. */
  imported_at?: string | null;
  /** What a reader should know about the data's accuracy or reach. */
  note?: string;
}

/** What every product's result carries besides its values. */
export interface ProductResult {
  provenance: Provenance[];
  /** When the product was computed (ISO 8601). */
  computed_at: string;
}

/** One data product: pure but for reading the geodata through `source`. */
export type Product<R extends ProductResult = ProductResult> = (source: GeoSource, input: ProductInput) => Promise<R>;
