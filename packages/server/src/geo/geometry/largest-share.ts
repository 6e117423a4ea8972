import type { Area, BBox, Position } from "../types.js";
import { relateAreas } from "./areas-meet.js";
import { bboxOf } from "./bbox-of.js";
import { bboxesMeet } from "./bboxes-meet.js";
import { clipToBox } from "./clip-to-box.js";
import { overlapWith } from "./overlap-area.js";
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
 * Most candidates need no overlap computed, which was most of a building import's time: a lot holding the whole
 * footprint has all of it (share 1, and no later candidate can beat it), a lot apart from it has none. Only for a
 * lot whose boundary meets the footprint's is the overlap measured ({@link overlapWith}), the lot first cut to the
 * footprint's surroundings, so that a lot of thousands of vertices costs no more than its few nearby ones. A
 * candidate may bring its box, when its caller keeps it for the many footprints around the same lot.
 *
 * @example
 * largestShare(footprint, [{ id: 7, area: lot7 }, { id: 8, area: lot8 }]); //= { id: 7, share: 0.7 }
 */
export function largestShare<T>(
  footprint: Area,
  candidates: readonly { id: T; area: Area; box?: BBox }[],
): { id: T; share: number } | undefined {
  const whole = planarArea(polygonsOf(footprint));
  if (!(whole > 0)) return undefined;
  const box = bboxOf(footprint);
  // The footprint's box and a little more, so that the footprint lies strictly inside it (see clipToBox).
  const margin = Math.max(box[2] - box[0], box[3] - box[1]) * 0.01 + 1e-9;
  const surroundings: BBox = [box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin];
  let best: { id: T; share: number } | undefined;
  let overlap: ((area: Area) => number) | undefined;
  for (const candidate of candidates) {
    const areaBox = candidate.box ?? bboxOf(candidate.area);
    if (!bboxesMeet(box, areaBox)) continue;
    // Read only now, and not at all for the candidates after one holding the whole footprint: a caller may parse
    // its candidates' boundaries as they are read.
    const { id, area } = candidate;
    const relation = relateAreas(footprint, area, { inner: box, outer: areaBox });
    if (relation === "apart") continue;
    if (relation === "within") return best?.share === 1 ? best : { id, share: 1 };
    const cut: Area = { type: "MultiPolygon", coordinates: clipToBox(area, surroundings) };
    overlap ??= overlapWith(footprint);
    const share = Math.min(1, overlap(cut) / whole);
    if (share > 0 && (best === undefined || share > best.share)) best = { id, share };
  }
  return best;
}

/** Square degrees of a multipolygon: exteriors less holes, whatever their winding. */
function planarArea(polygons: readonly (readonly (readonly Position[])[])[]): number {
  let total = 0;
  for (const [exterior, ...holes] of polygons) {
    if (!exterior) continue;
    total += Math.abs(planarRingArea(exterior));
    for (const hole of holes) total -= Math.abs(planarRingArea(hole));
  }
  return total;
}
