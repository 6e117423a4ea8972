import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import type { Position } from "../types.js";
import type { Pair } from "./read-polygons.js";

/** Where a hole that lies outside its own exterior was found to belong. */
export type PlacedHoles = { polygons: Pair[][][]; moved: boolean } | { stray: { polygon: number; ring: number } };

/**
 * Gives every hole that lies wholly outside its own exterior to the polygon whose exterior holds it, as a
 * shapefile reader would have; a hole no exterior holds is a stray (0-based indexes). A hole that crosses its
 * exterior stays where it is, for re-noding to clip.
 */
export function placeHoles(polygons: readonly Pair[][][]): PlacedHoles {
  const exteriors = polygons.map(([exterior = []]) => exterior);
  const placed: Pair[][][] = exteriors.map((exterior) => [exterior]);
  let moved = false;
  for (const [p, [exterior = [], ...holes]] of polygons.entries()) {
    for (const [h, hole] of holes.entries()) {
      if (!liesOutside(hole, exterior)) {
        placed[p]?.push(hole);
        continue;
      }
      const home = exteriors.findIndex((other, o) => o !== p && ringHolds(other, hole));
      if (home < 0) return { stray: { polygon: p, ring: h + 1 } };
      placed[home]?.push(hole);
      moved = true;
    }
  }
  return { polygons: placed, moved };
}

/** No position of the hole is inside the exterior, some is outside it, and no position of the exterior is inside the hole. */
function liesOutside(hole: Pair[], exterior: Pair[]): boolean {
  return (
    hole.some((position) => !inside(position, exterior, false)) &&
    !hole.some((position) => inside(position, exterior, true)) &&
    !exterior.some((position) => inside(position, hole, true))
  );
}

/** Every position of the hole is in the exterior or on it, and some is strictly inside. Rings closed. */
export function ringHolds(exterior: readonly Position[], hole: readonly Position[]): boolean {
  return (
    hole.every((position) => inside(position, exterior, false)) &&
    hole.some((position) => inside(position, exterior, true))
  );
}

function inside(position: Position, ring: readonly Position[], strictly: boolean): boolean {
  return booleanPointInPolygon(
    position,
    { type: "Polygon", coordinates: [ring as Position[]] },
    { ignoreBoundary: strictly },
  );
}
