import { chordLength } from "../geometry/chord-length.js";
import { distanceToGeometry, expandBBox } from "../geometry/index.js";
import type { LayerFeature } from "../store/geo-rows.js";
import { readLayerFeatures } from "../store/read-spatial-rows.js";
import { type GeoSource, layerBBoxMeets, sameValueUnindexed } from "../store/spatial-filter.js";
import type { LonLat } from "../types.js";

/**
 * Where the search starts. The features read grow with the square of the radius: from 500 m, an order read some
 * hundred hydrants of a city's to find the one a hundred metres away, and took a fifth more CPU where its data was
 * not yet cached. A sparse layer pays a few more queries instead, of a few rows each.
 */
const FIRST_RADIUS_M = 125;

/**
 * The `count` features of one layer nearest to `point`, with their distances, searching outwards from 125 m and
 * doubling up to `maxMetres`. A ring's answer is final only once its `count`-th distance lies within the radius
 * searched: a feature just outside the box could otherwise be nearer than one in a corner of it.
 */
export async function nearestLayerFeatures(
  source: GeoSource,
  datasetId: number,
  point: LonLat,
  count = 1,
  maxMetres = 50_000,
): Promise<Array<{ feature: LayerFeature; distanceM: number }>> {
  for (let radius = Math.min(FIRST_RADIUS_M, maxMetres); ; radius = Math.min(radius * 2, maxMetres)) {
    const box = expandBBox([point[0], point[1], point[0], point[1]], radius);
    // A large polygon comes as its parts in the box: its nearest point within the radius lies on one of them.
    const features = await readLayerFeatures(
      source,
      (query) =>
        query
          .where(sameValueUnindexed(source.dialect, "layer_features.dataset_id", datasetId))
          .where(layerBBoxMeets(source.dialect, [datasetId], box)),
      box,
    );
    const hits = nearestOf(features, point, count, radius);
    if (hits.length === count || radius >= maxMetres) return hits;
  }
}

/**
 * The `count` features nearest to `point` within `radius`, nearest first (ties by id). A point feature is measured
 * exactly only while its chord distance, a lower bound, could still place it: of the hundreds of hydrants within
 * a search ring, a handful are measured on the ellipsoid.
 */
function nearestOf(
  features: LayerFeature[],
  point: LonLat,
  count: number,
  radius: number,
): Array<{ feature: LayerFeature; distanceM: number }> {
  const candidates = features
    .map((feature) => ({
      feature,
      bound: feature.geometry.type === "Point" ? chordLength(point, feature.geometry.coordinates) : 0,
    }))
    .filter((candidate) => candidate.bound <= radius)
    .sort((a, b) => a.bound - b.bound);
  const hits: Array<{ feature: LayerFeature; distanceM: number }> = [];
  for (const { feature, bound } of candidates) {
    if (hits.length >= count && bound > (hits[count - 1]?.distanceM ?? Number.POSITIVE_INFINITY)) break;
    const distanceM = distanceToGeometry(point, feature.geometry);
    if (distanceM > radius) continue;
    hits.push({ feature, distanceM });
    hits.sort((a, b) => a.distanceM - b.distanceM || a.feature.featureId - b.feature.featureId);
  }
  return hits.slice(0, count);
}
