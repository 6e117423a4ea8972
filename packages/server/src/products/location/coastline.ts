import { distanceToGeometry } from "../../geo/geometry/index.js";
import type { LonLat, Position } from "../../geo/types.js";
import { candidateLimit } from "./candidate-limit.js";
import { coastline } from "./coastline-atlas.js";
import { unitVector } from "./unit-vector.js";

/**
 * How far `point` lies from the coast — the nearest edge of Natural Earth's 1:10m land polygons, metres on
 * WGS 84 — and whether it lies on land. Natural Earth draws the coast to a few hundred metres at best and leaves
 * out estuaries, small inlets and islands, and world-atlas quantizes it further: read distances under a few
 * kilometres as "near the coast". Lakes are not coast: Natural Earth's land covers them, the Great Lakes too.
 *
 * The edges nearest by chord come from a ball tree and the land test from polygons cut into bands of latitude,
 * so a look-up measures a few dozen edges, not the coast's 400,000.
 *
 * @example
 * await coastDistance([-71.08, 42.37]); //= { distanceM: 3000…, onLand: true } (Cambridge, MA)
 */
export async function coastDistance(point: LonLat): Promise<{ distanceM: number; onLand: boolean }> {
  const { lonLat, tree, land } = await coastline();
  const p = unitVector(point[0], point[1]);
  const limit = candidateLimit(tree.nearestChord(p));
  const candidates: Position[][] = [];
  tree.edgesWithin(p, limit, (a) => {
    candidates.push([
      [lonLat[a * 2] ?? 0, lonLat[a * 2 + 1] ?? 0],
      [lonLat[a * 2 + 2] ?? 0, lonLat[a * 2 + 3] ?? 0],
    ]);
  });
  const distanceM = distanceToGeometry(point, { type: "MultiLineString", coordinates: candidates });
  return { distanceM, onLand: land.contains(point) };
}
