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
 * footprint has all of it (share 1, and no other candidate can beat it), a lot apart from it has none. Only for a
 * lot whose boundary meets the footprint's is the overlap measured ({@link overlapWith}), the lot first cut to the
 * footprint's surroundings, so that a lot of thousands of vertices costs no more than its few nearby ones. A
 * candidate may bring its box, when its caller keeps it for the many footprints around the same lot, and a caller
 * that has measured the footprint's box may give it too.
 *
 * @example
 * largestShare(footprint, [{ id: 7, area: lot7 }, { id: 8, area: lot8 }]); //= { id: 7, share: 0.7 }
 */
export function largestShare<T>(
  footprint: Area,
  candidates: readonly { id: T; area: Area; box?: BBox }[],
  box: BBox = bboxOf(footprint),
): { id: T; share: number } | undefined {
  const whole = planarArea(polygonsOf(footprint));
  if (!(whole > 0)) return undefined;
  const shares = new Shares(footprint, box, whole);
  let best: { id: T; share: number; index: number } | undefined;
  for (const holders of HOLDERS_FIRST) {
    for (let index = 0; index < candidates.length; index++) {
      const candidate = candidates[index] as (typeof candidates)[number];
      const candidateBox = candidate.box ?? bboxOf(candidate.area);
      if (boxHolds(candidateBox, box) !== holders || !bboxesMeet(box, candidateBox)) continue;
      // The area read only now: a caller may parse its candidates' boundaries as they are read.
      const share = shares.of(candidate.area, candidateBox);
      if (share === WHOLE) return best?.share === 1 ? { id: best.id, share: 1 } : { id: candidate.id, share: 1 };
      // Ties go to the earlier candidate, whatever order they were related in.
      if (share > 0 && (best === undefined || share > best.share || (share === best.share && index < best.index))) {
        best = { id: candidate.id, share, index };
      }
    }
  }
  return best && { id: best.id, share: best.share };
}

/**
 * The candidates are gone through twice: first the lots whose boxes hold the footprint's box, then the others.
 * Only a lot of the first kind can hold all of the footprint (any other leaves some of it outside), so the lot
 * holding it is mostly the first one related, and the lots beside it, whose boxes meet its box, are not read at
 * all: over the 20-tile scale data, 2.42 relations a footprint became 1.70.
 */
const HOLDERS_FIRST = [true, false] as const;

/** What {@link Shares.of} answers for a lot that holds the whole footprint, its boundary apart from the footprint's. */
const WHOLE = Symbol("whole");

/** The shares of one footprint held by lots, the footprint's overlap prepared once for all the lots it crosses. */
class Shares {
  readonly #footprint: Area;
  readonly #box: BBox;
  readonly #surroundings: BBox;
  readonly #whole: number;
  #overlap: ((area: Area) => number) | undefined;

  constructor(footprint: Area, box: BBox, whole: number) {
    this.#footprint = footprint;
    this.#box = box;
    // The footprint's box and a little more, so that the footprint lies strictly inside it (see clipToBox).
    const margin = Math.max(box[2] - box[0], box[3] - box[1]) * 0.01 + 1e-9;
    this.#surroundings = [box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin];
    this.#whole = whole;
  }

  /** The share of the footprint `area` holds (0..1), or {@link WHOLE} when it holds the footprint within it. */
  of(area: Area, areaBox: BBox): number | typeof WHOLE {
    const relation = relateAreas(this.#footprint, area, { inner: this.#box, outer: areaBox });
    if (relation === "apart") return 0;
    if (relation === "within") return WHOLE;
    const cut: Area = { type: "MultiPolygon", coordinates: clipToBox(area, this.#surroundings) };
    this.#overlap ??= overlapWith(this.#footprint);
    return Math.min(1, this.#overlap(cut) / this.#whole);
  }
}

/** Whether box `outer` holds box `inner` (edges may touch). */
function boxHolds(outer: BBox, inner: BBox): boolean {
  return outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];
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
