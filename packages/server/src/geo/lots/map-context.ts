import type { Attribution } from "@lotline/contract";
import { layerDatasets, provenanceOf } from "../../products/provenance.js";
import { buildingsMeetingBBox } from "../queries/buildings-meeting-bbox.js";
import { layerFeaturesMeetingBBox } from "../queries/layer-features-meeting-bbox.js";
import { parcelsMeetingBBox } from "../queries/parcels-meeting-bbox.js";
import type { LayerFeature } from "../store/geo-rows.js";
import type { GeoSource } from "../store/spatial-filter.js";
import type { BBox, Feature, Geometry } from "../types.js";
import { attributionOf } from "./attribution-of.js";

/** The widest box a map may ask about, degrees of longitude and of latitude: a neighbourhood, not a county. */
export const MAP_CONTEXT_MAX_SPAN_DEG = 0.05;
/** The most features one collection of an answer carries. */
export const MAP_CONTEXT_MAX_FEATURES = 2000;

export interface FeatureCollection<P> {
  type: "FeatureCollection";
  features: Array<Feature<Geometry, P> & { id: number }>;
}

/** What a page's map draws under the property: the service's own data in a box, with its attributions. */
export interface MapContextData {
  parcels: FeatureCollection<{ parcel_id: number; source_id: string }>;
  buildings: FeatureCollection<{ building_id: number; parcel_id: number | null }>;
  layers: FeatureCollection<{ layer: string; name: string }>;
  attribution: Attribution[];
  truncated: boolean;
}

/**
 * The parcels, building footprints and polygon-layer features (flood zones, districts, …) meeting `bbox`, each as
 * a GeoJSON FeatureCollection with a few small properties, at most `maxFeatures` per collection (`truncated` then
 * says the box held more), and the attribution of every dataset shown (once for datasets that read alike). Point
 * layers are left out: the map shows areas.
 */
export async function mapContext(
  source: GeoSource,
  bbox: BBox,
  maxFeatures = MAP_CONTEXT_MAX_FEATURES,
): Promise<MapContextData> {
  const layerNames = new Map(
    (await layerDatasets(source))
      .filter((layer) => layer.geometryKind === "polygon")
      .map((layer) => [layer.datasetId, layer.provenance.dataset]),
  );
  const parcels = await parcelsMeetingBBox(source, bbox, maxFeatures);
  const buildings = await buildingsMeetingBBox(source, bbox, maxFeatures);
  const features = await layerFeaturesMeetingBBox(source, [...layerNames.keys()], bbox, maxFeatures);
  const shown = [...parcels.items, ...buildings.items, ...features.items].map((item) => item.datasetId);
  return {
    parcels: collection(
      parcels.items.map((parcel) => ({
        type: "Feature",
        id: parcel.parcelId,
        geometry: parcel.boundary,
        properties: { parcel_id: parcel.parcelId, source_id: parcel.sourceId },
      })),
    ),
    buildings: collection(
      buildings.items.map((building) => ({
        type: "Feature",
        id: building.buildingId,
        geometry: building.footprint,
        properties: { building_id: building.buildingId, parcel_id: building.parcelId },
      })),
    ),
    layers: collection(
      features.items.map((feature) => ({
        type: "Feature",
        id: feature.featureId,
        geometry: feature.geometry,
        properties: { layer: layerNames.get(feature.datasetId) ?? "", name: featureName(feature) },
      })),
    ),
    attribution: distinct((await provenanceOf(source, shown)).map(attributionOf)),
    truncated: parcels.truncated || buildings.truncated || features.truncated,
  };
}

/** Datasets published together (a town's parcels and buildings) often read alike: a map credits them once. */
function distinct(attributions: Attribution[]): Attribution[] {
  const seen = new Set<string>();
  return attributions.filter((attribution) => {
    const key = JSON.stringify([attribution.dataset, attribution.provider, attribution.license]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function collection<P>(features: FeatureCollection<P>["features"]): FeatureCollection<P> {
  return { type: "FeatureCollection", features };
}

/**
 * A short label for a layer feature: its published `name` (in any case), else FEMA's flood zone (`fld_zone`, e.g.
 * `AE`), else the publisher's id.
 */
function featureName({ attributes, sourceId }: LayerFeature): string {
  const entries = Object.entries(attributes);
  const named = (key: string) =>
    entries.find(([name, value]) => name.toLowerCase() === key && typeof value === "string" && value.trim() !== "");
  const found = named("name") ?? named("fld_zone");
  return found ? String(found[1]).trim() : sourceId;
}
