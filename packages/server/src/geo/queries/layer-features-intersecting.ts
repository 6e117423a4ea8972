import { bboxOf, intersects } from "../geometry/index.js";
import type { LayerFeature } from "../store/geo-rows.js";
import { readLayerFeatures } from "../store/read-spatial-rows.js";
import { type GeoSource, layerBBoxMeets, sameValueUnindexed } from "../store/spatial-filter.js";
import type { Area } from "../types.js";

/**
 * The features of one layer that intersect `area` (exactly, not just by bounding box). A large polygon comes as its
 * parts near the area (see `readLayerFeatures`): what meets the area of it, and nothing that does not.
 */
export async function layerFeaturesIntersecting(
  source: GeoSource,
  datasetId: number,
  area: Area,
): Promise<LayerFeature[]> {
  const box = bboxOf(area);
  const features = await readLayerFeatures(
    source,
    (query) =>
      query
        .where(sameValueUnindexed(source.dialect, "layer_features.dataset_id", datasetId))
        .where(layerBBoxMeets(source.dialect, [datasetId], box)),
    box,
  );
  // In id order, sorted here, not by the statement: no plan may then walk the primary key for the order.
  return features.filter((feature) => intersects(feature.geometry, area)).sort((a, b) => a.featureId - b.featureId);
}
