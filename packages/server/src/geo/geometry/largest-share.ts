import polygonClipping from "polygon-clipping";
import type { Area } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import { planarRingArea } from "./planar-ring.js";
import { polygonsOf } from "./positions.js";

/**
 * The candidate holding the largest share of `footprint`'s area, with that share (overlap ÷ footprint area, 0..1);
 * `undefined` when none overlaps it with any area (touching is not overlapping). Ties go to the earlier candidate.
 * This decides which parcel a building belongs to: a rowhouse whose party wall strays 30 % onto the neighbour's
 * lot still belongs to the lot holding the other 70 %.
 *
 * A share is a ratio of two areas a few metres apart, so it is computed in plain longitude/latitude: the
 * ellipsoid's scale cancels out to within a millionth, and this runs for every candidate of every imported building.
 *
 * @example
 * largestShare(footprint, [{ id: 7, area: lot7 }, { id: 8, area: lot8 }]); //= { id: 7, share: 0.7 }
 */
export function largestShare<T>(
  footprint: Area,
  candidates: readonly { id: T; area: Area }[],
): { id: T; share: number } | undefined {
  const polygons = polygonsOf(footprint) as polygonClipping.MultiPolygon;
  const whole = planarArea(polygons);
  if (!(whole > 0)) return undefined;
  const box = bboxOf(footprint);
  let best: { id: T; share: number } | undefined;
  for (const { id, area } of candidates) {
    if (!bboxesMeet(box, bboxOf(area))) continue;
    const overlap = polygonClipping.intersection(polygons, polygonsOf(area) as polygonClipping.MultiPolygon);
    const share = Math.min(1, planarArea(overlap) / whole);
    if (share > 0 && (best === undefined || share > best.share)) best = { id, share };
  }
  return best;
}

/** Square degrees of a multipolygon: exteriors less holes, whatever their winding. */
function planarArea(polygons: polygonClipping.MultiPolygon): number {
  let total = 0;
  for (const [exterior, ...holes] of polygons) {
    if (!exterior) continue;
    total += Math.abs(planarRingArea(exterior));
    for (const hole of holes) total -= Math.abs(planarRingArea(hole));
  }
  return total;
}
