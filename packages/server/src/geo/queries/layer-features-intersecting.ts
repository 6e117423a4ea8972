import { bboxOf, intersects } from "../geometry/index.js";
import { type LayerFeature, toLayerFeature } from "../store/geo-rows.js";
import { bboxMeets, type GeoSource, sameValueUnindexed } from "../store/spatial-filter.js";
import type { Area } from "../types.js";

/** The features of one layer that intersect `area` (exactly, not just by bounding box). */
export async function layerFeaturesIntersecting(
  { db, dialect }: GeoSource,
  datasetId: number,
  area: Area,
): Promise<LayerFeature[]> {
  const rows = await db
    .selectFrom("layer_features")
    .selectAll()
    .where(sameValueUnindexed(dialect, "layer_features.dataset_id", datasetId))
    .where(bboxMeets(dialect, "layer_features", bboxOf(area)))
    .orderBy("feature_id")
    .execute();
  return rows.map(toLayerFeature).filter((feature) => intersects(feature.geometry, area));
}
