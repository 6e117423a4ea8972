import { covers } from "../geo/datasets/coverage.js";
import { intersectionArea } from "../geo/geometry/index.js";
import { layerFeaturesIntersecting } from "../geo/queries/layer-features-intersecting.js";
import { firstRadiusOf, nearestLayerFeatures } from "../geo/queries/nearest-layer-features.js";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import type { Area, LonLat } from "../geo/types.js";
import type { Product, ProductInput, ProductResult, Provenance } from "./product.js";
import { type DatasetProvenance, layerDatasets } from "./provenance.js";
import { round } from "./round.js";

/** How far the search for a point layer's nearest feature goes, m. */
export const NEAREST_FEATURE_MAX_M = 50_000;

/** Half the side of the square standing in for the point when there is no lot, degrees (about a centimetre). */
const POINT_HALF_SIDE = 1e-7;

/** A polygon layer (flood zones, zoning, historic districts): the features meeting the lot, with their attributes. */
export interface PolygonLayerResult extends Provenance {
  geometry_kind: "polygon";
  /** Whether any feature meets the lot (touching counts). */
  intersects: boolean;
  features: Array<{
    source_id: string;
    /** The feature's attributes as published, e.g. FEMA's `fld_zone` and `sfha_tf`. */
    attributes: Record<string, unknown>;
    /** How much of the lot the feature covers, m²; null when matched against the point alone. */
    overlap_m2: number | null;
  }>;
}

/** A point layer (fire stations, hydrants): its feature nearest to the order's point. */
export interface PointLayerResult extends Provenance {
  geometry_kind: "point";
  /** Null when the layer has no feature within {@link NEAREST_FEATURE_MAX_M}. */
  nearest: {
    source_id: string;
    attributes: Record<string, unknown>;
    distance_m: number;
    /** The feature's position when it is a Point. */
    location: LonLat | null;
  } | null;
}

export interface ThirdPartyResult extends ProductResult {
  /** What the polygon layers were matched against: the drawn boundary, the imported parcel, or the point. */
  matched_against: "user_boundary" | "parcel" | "point";
  /** One entry per imported layer covering the property, by name, each with its provenance. */
  layers: LayerResult[];
}

/**
 * `third_party`: what the imported layers say about the property. For each polygon layer, the features meeting the
 * lot (the drawn boundary, else the parcel, else the point itself), with their attributes and how much of the lot
 * each covers; for each point layer, the feature nearest to the point and its distance (straight, on WGS 84).
 * Every layer carries its own provider, licence and vintage. Only the layers that cover the point take part (see
 * `geo/datasets/coverage.ts`): a layer of another city or state says nothing about this property. Needs no parcel.
 */
export const thirdPartyProduct: Product<ThirdPartyResult> = async (source, input) => {
  const layers = (await layerDatasets(source)).filter(
    (layer) => layer.geometryKind !== null && covers(layer.extent, input.point),
  );
  // Each layer is its own lookups, which PostgreSQL answers on connections of their own at once.
  const results = await Promise.all(layers.map((layer) => layerResult(source, layer, input)));
  return {
    matched_against: matchedAgainst(input).kind,
    layers: results,
    provenance: layers.map((layer) => layer.provenance),
    computed_at: new Date().toISOString(),
  };
};

export type LayerResult = PolygonLayerResult | PointLayerResult;

/** What one imported layer (of polygons or points) says about the property. */
export async function layerResult(
  source: GeoSource,
  layer: DatasetProvenance,
  input: ProductInput,
): Promise<LayerResult> {
  if (layer.geometryKind === "point") return nearestOf(source, layer, input.point);
  const against = matchedAgainst(input);
  return intersecting(source, layer, against.area, against.kind !== "point");
}

/**
 * `third_party` with one layer's entry computed again: replaced, added in its place by name, or left out when
 * `result` is undefined (the layer no longer covers the property). The other layers are as they were.
 */
export function withLayer(
  thirdParty: ThirdPartyResult,
  name: string,
  result: LayerResult | undefined,
  computedAt: string,
): ThirdPartyResult {
  const others = thirdParty.layers.filter((layer) => layer.dataset !== name);
  const at = others.findIndex((layer) => layer.dataset > name);
  const layers = result ? others.toSpliced(at === -1 ? others.length : at, 0, result) : others;
  return {
    ...thirdParty,
    layers,
    provenance: layers.map(provenanceOfLayer),
    computed_at: computedAt,
  };
}

/** A layer's entry carries its dataset's provenance. */
function provenanceOfLayer({ dataset, provider, license, vintage, imported_at, note }: LayerResult): Provenance {
  return {
    dataset,
    provider,
    license,
    vintage,
    ...(imported_at === undefined ? {} : { imported_at }),
    ...(note === undefined ? {} : { note }),
  };
}

function matchedAgainst(input: ProductInput): { kind: ThirdPartyResult["matched_against"]; area: Area } {
  if (input.boundary) return { kind: "user_boundary", area: input.boundary };
  if (input.parcel) return { kind: "parcel", area: input.parcel.boundary };
  const [lon, lat] = input.point;
  const [w, s, e, n] = [lon - POINT_HALF_SIDE, lat - POINT_HALF_SIDE, lon + POINT_HALF_SIDE, lat + POINT_HALF_SIDE];
  const square: Area = {
    type: "Polygon",
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  };
  return { kind: "point", area: square };
}

async function intersecting(
  source: GeoSource,
  layer: DatasetProvenance,
  area: Area,
  measure: boolean,
): Promise<PolygonLayerResult> {
  const features = await layerFeaturesIntersecting(source, layer.datasetId, area);
  return {
    ...layer.provenance,
    geometry_kind: "polygon",
    intersects: features.length > 0,
    features: features.map((feature) => {
      const polygonal = feature.geometry.type === "Polygon" || feature.geometry.type === "MultiPolygon";
      return {
        source_id: feature.sourceId,
        attributes: feature.attributes,
        overlap_m2: measure && polygonal ? round(intersectionArea(area, feature.geometry as Area)) : null,
      };
    }),
  };
}

async function nearestOf(source: GeoSource, layer: DatasetProvenance, point: LonLat): Promise<PointLayerResult> {
  const [hit] = await nearestLayerFeatures(source, layer.datasetId, point, {
    maxMetres: NEAREST_FEATURE_MAX_M,
    firstRadiusM: firstRadiusOf(layer.extent, layer.recordCount),
  });
  const geometry = hit?.feature.geometry;
  const location: LonLat | null =
    geometry?.type === "Point" ? [geometry.coordinates[0] ?? Number.NaN, geometry.coordinates[1] ?? Number.NaN] : null;
  return {
    ...layer.provenance,
    geometry_kind: "point",
    nearest: hit
      ? {
          source_id: hit.feature.sourceId,
          attributes: hit.feature.attributes,
          distance_m: round(hit.distanceM),
          location,
        }
      : null,
  };
}
