import { bboxPolygon } from "../geometry/bbox-polygon.js";
import { intersects } from "../geometry/index.js";
import type { LayerFeature } from "../store/geo-rows.js";
import { readLayerFeatures } from "../store/read-spatial-rows.js";
import { type GeoSource, idForOrder, layerBBoxMeets, oneOfUnindexed } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";
import { type Capped, collectMatches } from "./collect-matches.js";

/** The features of the given layers meeting a box (touching counts), in id order, at most `limit` of them. */
export async function layerFeaturesMeetingBBox(
  source: GeoSource,
  datasetIds: readonly number[],
  bbox: BBox,
  limit: number,
): Promise<Capped<LayerFeature>> {
  if (datasetIds.length === 0) return { items: [], truncated: false };
  const area = bboxPolygon(bbox);
  return collectMatches(
    (afterId, batch) =>
      readLayerFeatures(source, (query) =>
        query
          .where(oneOfUnindexed(source.dialect, "layer_features.dataset_id", datasetIds))
          .where(layerBBoxMeets(source.dialect, datasetIds, bbox))
          .where(idForOrder(source.dialect, "feature_id"), ">", afterId)
          .orderBy(idForOrder(source.dialect, "feature_id"))
          .limit(batch),
      ),
    (feature) => feature.featureId,
    (feature) => intersects(feature.geometry, area),
    limit,
  );
}
