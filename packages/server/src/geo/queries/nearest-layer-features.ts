import { distanceToGeometry, expandBBox } from "../geometry/index.js";
import { type LayerFeature, toLayerFeature } from "../store/geo-rows.js";
import { bboxMeets, type GeoSource, sameValueUnindexed } from "../store/spatial-filter.js";
import type { LonLat } from "../types.js";

const FIRST_RADIUS_M = 500;

/**
 * The `count` features of one layer nearest to `point`, with their distances, searching outwards from 500 m and
 * doubling up to `maxMetres`. A ring's answer is final only once its `count`-th distance lies within the radius
 * searched: a feature just outside the box could otherwise be nearer than one in a corner of it.
 */
export async function nearestLayerFeatures(
  { db, dialect }: GeoSource,
  datasetId: number,
  point: LonLat,
  count = 1,
  maxMetres = 50_000,
): Promise<Array<{ feature: LayerFeature; distanceM: number }>> {
  for (let radius = Math.min(FIRST_RADIUS_M, maxMetres); ; radius = Math.min(radius * 2, maxMetres)) {
    const rows = await db
      .selectFrom("layer_features")
      .selectAll()
      .where(sameValueUnindexed(dialect, "layer_features.dataset_id", datasetId))
      .where(bboxMeets(dialect, "layer_features", expandBBox([point[0], point[1], point[0], point[1]], radius)))
      .execute();
    const hits = rows
      .map((row) => {
        const feature = toLayerFeature(row);
        return { feature, distanceM: distanceToGeometry(point, feature.geometry) };
      })
      .filter((hit) => hit.distanceM <= radius)
      .sort((a, b) => a.distanceM - b.distanceM || a.feature.featureId - b.feature.featureId)
      .slice(0, count);
    if (hits.length === count || radius >= maxMetres) return hits;
  }
}
