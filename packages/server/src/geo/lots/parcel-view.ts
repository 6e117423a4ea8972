import type { ParcelView } from "@lotline/contract";
import { provenanceOf } from "../../products/provenance.js";
import { round } from "../../products/round.js";
import type { Parcel } from "../store/geo-rows.js";
import type { GeoSource } from "../store/spatial-filter.js";
import { attributionOf } from "./attribution-of.js";

/** A parcel as a page draws it, with the attribution of the dataset it was imported from. */
export async function parcelView(source: GeoSource, parcel: Parcel): Promise<ParcelView> {
  const [provenance] = await provenanceOf(source, [parcel.datasetId]);
  return {
    parcel_id: parcel.parcelId,
    source_id: parcel.sourceId,
    boundary: parcel.boundary,
    area_m2: round(parcel.areaM2),
    attribution: provenance ? attributionOf(provenance) : { dataset: "unknown", provider: null, license: null },
  };
}
