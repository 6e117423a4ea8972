import polygonClipping from "polygon-clipping";
import { isFlat } from "./clean-ring.js";
import { planarRingArea } from "./planar-ring.js";
import type { Pair } from "./read-polygons.js";

/** The geometry re-noded, and whether that changed it. */
export type Renoded = { polygons: Pair[][][]; changed: boolean } | { error: string };

/** Relative difference in area below which re-noding is taken to have changed nothing but rounding. */
const AREA_TOLERANCE = 1e-9;

/** Re-noding passes at most: a pass that changes the geometry is checked by another. */
const MAX_PASSES = 4;

/**
 * The union of the polygons with themselves (polygon-clipping): crossings become nodes, overlapping or
 * edge-sharing polygons merge, self-crossing rings are read by the non-zero rule, the parts of holes outside
 * their exterior are dropped. When the union has the same polygons, rings and area as the input, the input was
 * already valid and is kept as it is (polygon-clipping would also drop collinear positions and move ring starts).
 *
 * polygon-clipping's own output is not always valid: where a vertex lands exactly on another edge it can leave a
 * ring pinched there with a lobe wound backwards. So a pass that changed the geometry is followed by another,
 * until one changes nothing.
 */
export function renode(polygons: Pair[][][]): Renoded {
  let current = polygons;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let united: Pair[][][];
    try {
      united = withoutSlivers(polygonClipping.union(current));
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
    if (sameShape(united, current)) return { polygons: current, changed: pass > 0 };
    current = united;
  }
  return { polygons: current, changed: true };
}

function sameShape(united: Pair[][][], polygons: Pair[][][]): boolean {
  return (
    united.length === polygons.length &&
    united.flat().length === polygons.flat().length &&
    Math.abs(netArea(united) - netArea(polygons)) <= AREA_TOLERANCE * grossArea(polygons)
  );
}

/** Rounding in the sweep can leave rings of zero area behind (a sliver of three nearly collinear nodes). */
function withoutSlivers(polygons: Pair[][][]): Pair[][][] {
  return polygons
    .filter(([exterior = []]) => !isFlat(exterior))
    .map(([exterior = [], ...holes]) => [exterior, ...holes.filter((hole) => !isFlat(hole))]);
}

/** Exteriors less holes, in square degrees. */
export function netArea(polygons: Pair[][][]): number {
  let total = 0;
  for (const [exterior = [], ...holes] of polygons) {
    total += Math.abs(planarRingArea(exterior));
    for (const hole of holes) total -= Math.abs(planarRingArea(hole));
  }
  return total;
}

function grossArea(polygons: Pair[][][]): number {
  let total = 0;
  for (const ring of polygons.flat()) total += Math.abs(planarRingArea(ring));
  return total;
}
