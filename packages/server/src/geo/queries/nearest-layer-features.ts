import { bboxPolygon } from "../geometry/bbox-polygon.js";
import { chordLength } from "../geometry/chord-length.js";
import { distanceToGeometry, expandBBox, geodesicArea } from "../geometry/index.js";
import type { LayerFeature } from "../store/geo-rows.js";
import { readLayerFeatures } from "../store/read-spatial-rows.js";
import { type GeoSource, layerBBoxMeets, sameValueUnindexed } from "../store/spatial-filter.js";
import type { BBox, LonLat } from "../types.js";

/**
 * Where a search starts at the least. The features read grow with the square of the radius: from 500 m, an order
 * read some hundred hydrants of a city's to find the one a hundred metres away, and took a fifth more CPU where its
 * data was not yet cached.
 */
const FIRST_RADIUS_M = 125;

export interface NearestSearch {
  /** How many features to find. */
  count?: number;
  /** How far to search at the most, m. */
  maxMetres?: number;
  /** Where to start, m (see {@link firstRadiusOf}); 125 m when not given. */
  firstRadiusM?: number;
}

/**
 * The `count` features of one layer nearest to `point`, with their distances, searching outwards from
 * `firstRadiusM` and doubling up to `maxMetres`. A ring's answer is final only once its `count`-th distance lies
 * within the radius searched: a feature just outside the box could otherwise be nearer than one in a corner of it.
 * So where the search starts changes what it costs, never what it finds.
 */
export async function nearestLayerFeatures(
  source: GeoSource,
  datasetId: number,
  point: LonLat,
  { count = 1, maxMetres = 50_000, firstRadiusM = FIRST_RADIUS_M }: NearestSearch = {},
): Promise<Array<{ feature: LayerFeature; distanceM: number }>> {
  for (let radius = Math.min(firstRadiusM, maxMetres); ; radius = Math.min(radius * 2, maxMetres)) {
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
 * Where the search of a layer of `records` features over `extent` starts: the half side of a square that would
 * hold two of them were they spread evenly. The nearest feature of an even (Poisson) spread then lies within the
 * radius four times out of five (1 − e^(−π/2)), so a sparse layer — a county's fire stations, kilometres apart —
 * is mostly answered by its first query instead of its fourth or fifth; a dense one starts at 125 m as before.
 */
export function firstRadiusOf(extent: BBox | null, records: number): number {
  const areaM2 = extent ? geodesicArea(bboxPolygon(extent)) : 0;
  if (!(areaM2 > 0) || records < 2) return FIRST_RADIUS_M;
  return Math.max(FIRST_RADIUS_M, Math.sqrt(areaM2 / records / 2));
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
