import { orientation } from "./orientation.js";
import { planarRingArea } from "./planar-ring.js";
import type { Pair } from "./read-polygons.js";

/**
 * How rings that do not meet lie wrongly in one another (0-based indexes): a hole outside its own exterior, a hole
 * that holds its own exterior, or a ring inside another that must not hold it (a hole in a hole, a polygon in
 * another's interior).
 */
export type NestingProblem = { kind: "hole_outside" | "covering_hole" | "overlap"; polygon: number; ring: number };

interface PlacedRing {
  polygon: number;
  ring: number;
  positions: Pair[];
  box: [number, number, number, number];
  size: number;
}

/**
 * The first ring that lies where it must not, for rings known not to meet (see `findCrossing`): then one position
 * of a ring tells where all of it lies, and the innermost ring holding it must be its own exterior (a hole) or a
 * hole of another polygon, or none (an exterior). Costs one point-in-ring test per pair of rings whose boxes
 * overlap.
 */
export function nestingProblem(polygons: readonly Pair[][][]): NestingProblem | undefined {
  const rings: PlacedRing[] = polygons.flatMap((polygonRings, polygon) =>
    polygonRings.map((positions, ring) => ({
      polygon,
      ring,
      positions,
      box: boxOf(positions),
      size: Math.abs(planarRingArea(positions)),
    })),
  );
  for (const placed of rings) {
    const parent = innermostHolder(placed, rings);
    const isHole = placed.ring > 0;
    if (isHole && parent?.polygon === placed.polygon && parent.ring === 0) continue;
    if (!isHole && (parent === undefined || parent.ring > 0)) continue;
    const { polygon, ring } = placed;
    if (!isHole) return { kind: "overlap", polygon, ring };
    const exterior = rings.find((other) => other.polygon === polygon && other.ring === 0);
    if (exterior && holds(exterior, placed)) return { kind: "overlap", polygon, ring };
    if (exterior && holds(placed, exterior)) return { kind: "covering_hole", polygon, ring };
    return { kind: "hole_outside", polygon, ring };
  }
  return undefined;
}

function innermostHolder(placed: PlacedRing, rings: readonly PlacedRing[]): PlacedRing | undefined {
  let innermost: PlacedRing | undefined;
  for (const other of rings) {
    if (other === placed || (innermost && other.size >= innermost.size)) continue;
    if (holds(other, placed)) innermost = other;
  }
  return innermost;
}

/** Whether `outer` holds `inner`, rings that do not meet: whether it holds one of its positions. */
function holds(outer: PlacedRing, inner: PlacedRing): boolean {
  const point = inner.positions[0];
  if (point === undefined) return false;
  const [west, south, east, north] = outer.box;
  if (point[0] < west || point[0] > east || point[1] < south || point[1] > north) return false;
  return windingNumber(outer.positions, point) !== 0;
}

/** How many times a closed ring winds around a point not on it (exact predicates, so no rounding decides). */
function windingNumber(ring: readonly Pair[], point: Pair): number {
  let winding = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [a, b] = [ring[i] as Pair, ring[i + 1] as Pair];
    if (a[1] <= point[1]) {
      if (b[1] > point[1] && orientation(a, b, point) > 0) winding += 1;
    } else if (b[1] <= point[1] && orientation(a, b, point) < 0) {
      winding -= 1;
    }
  }
  return winding;
}

/** By index: destructuring each position walked an iterator, tens of megabytes of garbage a flood layer. */
function boxOf(positions: readonly Pair[]): [number, number, number, number] {
  let [west, south, east, north] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -Infinity, -Infinity];
  for (const position of positions) {
    const lon = position[0];
    const lat = position[1];
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  return [west, south, east, north];
}
