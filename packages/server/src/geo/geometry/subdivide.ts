import polygonClipping from "polygon-clipping";
import type { Area, BBox, Polygon, Position } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { ringHolds } from "./place-holes.js";
import { planarRingArea } from "./planar-ring.js";
import { polygonsOf, vertexCount } from "./positions.js";
import { type OpenRing, splitRings } from "./split-rings.js";

/** The most positions a part of a subdivided area holds, unless it lies in a box too small to cut further. */
export const PART_MAX_POSITIONS = 256;

/** Halvings of the area's box at most: 2⁻²⁰ of a county is a few centimetres. */
const MAX_DEPTH = 20;

/**
 * `area` cut into polygons of at most {@link PART_MAX_POSITIONS} positions, as PostGIS's ST_Subdivide does:
 * together they cover exactly what the area covers (in longitude and latitude) and they meet only along the cuts.
 * An order touches one corner of a flood zone of 100,000 positions; with the zone stored in parts it reads a few
 * hundred, and measures against them put back together ({@link mergeParts}).
 *
 * The box is halved across its longer side until each half holds few enough positions; each cut splits the rings
 * into valid rings on either side ({@link splitRings}), linear in the positions, and a ring wholly on one side is
 * kept as it is. Undefined when the area is small enough to stay whole, or when its rings are not valid (crossings
 * of a cut that do not alternate, a hole in no exterior): the whole area is then always right.
 */
export function subdivide(area: Area, maxPositions = PART_MAX_POSITIONS): Polygon[] | undefined {
  if (vertexCount(area) <= maxPositions) return undefined;
  try {
    return split(openRings(area), bboxOf(area), maxPositions, 0);
  } catch {
    return undefined;
  }
}

function split(rings: OpenRing[], box: BBox, maxPositions: number, depth: number): Polygon[] {
  if (positionsOf(rings) <= maxPositions || depth === MAX_DEPTH) return polygonsOfRings(rings);
  const { axis, at, halves } = cutAcross(rings, box);
  const [below, above] = halves;
  return [
    ...(below.length > 0 ? split(below, halfBox(box, axis, at, "below"), maxPositions, depth + 1) : []),
    ...(above.length > 0 ? split(above, halfBox(box, axis, at, "above"), maxPositions, depth + 1) : []),
  ];
}

/**
 * The rings cut across the box's longer side (in degrees: parts need not be square, only small), near its middle:
 * where a position lies on the middle line itself, the line moves by a millionth of the box until none does.
 */
function cutAcross(rings: OpenRing[], [west, south, east, north]: BBox) {
  const axis: 0 | 1 = east - west >= north - south ? 0 : 1;
  const [low, high] = axis === 0 ? [west, east] : [south, north];
  for (let attempt = 0; attempt < 16; attempt++) {
    const nudge = (attempt % 2 === 0 ? 1 : -1) * Math.ceil(attempt / 2) * 1e-6;
    const at = low + (high - low) * (0.5 + nudge);
    const halves = splitRings(rings, axis, at);
    if (halves) return { axis, at, halves };
  }
  throw new Error("every line tried across the box passes through a position");
}

function halfBox([west, south, east, north]: BBox, axis: 0 | 1, at: number, side: "below" | "above"): BBox {
  if (axis === 0) return side === "below" ? [west, south, at, north] : [at, south, east, north];
  return side === "below" ? [west, south, east, at] : [west, at, east, north];
}

/** The area's rings, open, wound as {@link splitRings} needs them: exteriors counter-clockwise, holes clockwise. */
function openRings(area: Area): OpenRing[] {
  const rings: OpenRing[] = [];
  for (const polygon of polygonsOf(area)) {
    for (const [r, ring] of polygon.entries()) {
      const open = ring.slice(0, -1);
      const counterClockwise = planarRingArea(open) > 0;
      rings.push(counterClockwise === (r === 0) ? open : open.reverse());
    }
  }
  return rings;
}

/** Positions of the rings once closed, as {@link vertexCount} counts them. */
function positionsOf(rings: OpenRing[]): number {
  let count = 0;
  for (const ring of rings) count += ring.length + 1;
  return count;
}

/**
 * The rings of a part as polygons: each counter-clockwise ring an exterior, each hole given to the smallest
 * exterior that holds it (an island in a lake in an island holds its own holes). A ring of no area is dropped.
 */
function polygonsOfRings(rings: OpenRing[]): Polygon[] {
  const exteriors: Array<{ ring: Position[]; area: number; holes: Position[][] }> = [];
  const holes: Position[][] = [];
  for (const open of rings) {
    const area = planarRingArea(open);
    const ring = [...open, open[0] as Position];
    if (area > 0) exteriors.push({ ring, area, holes: [] });
    else if (area < 0) holes.push(ring);
  }
  exteriors.sort((a, b) => a.area - b.area);
  for (const hole of holes) {
    const home = exteriors.length === 1 ? exteriors[0] : exteriors.find(({ ring }) => ringHolds(ring, hole));
    if (home === undefined) throw new Error("a hole lies in no exterior");
    home.holes.push(hole);
  }
  return exteriors.map(({ ring, holes }) => ({ type: "Polygon", coordinates: [ring, ...holes] }));
}

/**
 * Parts of one area put back together: one polygon where they meet, and each edge the cuts split whole again. A
 * lot measured against it meets and overlaps it as it does the whole area, to the square millimetre: a cut point
 * left on a 1 km edge would make that edge two geodesics instead of one, and move a riverside lot's overlap with
 * its flood zone by square metres.
 */
export function mergeParts(parts: Polygon[]): Area {
  const [first, ...others] = parts.map((part) => part.coordinates as polygonClipping.Polygon);
  if (!first || others.length === 0) return parts[0] as Polygon;
  const merged = polygonClipping.union(first, ...others);
  return { type: "MultiPolygon", coordinates: merged.map((polygon) => polygon.map(withoutCutPoints)) };
}

/** A closed ring without the positions lying on the straight line between their neighbours (to rounding). */
function withoutCutPoints(ring: Position[]): Position[] {
  const open = ring.slice(0, -1);
  const kept = open.filter((position, i) => {
    const before = open[(i + open.length - 1) % open.length] as Position;
    const after = open[(i + 1) % open.length] as Position;
    return !betweenOnLine(before, position, after);
  });
  return kept.length >= 3 ? [...kept, kept[0] as Position] : ring;
}

/** Whether `p` lies on the segment from `a` to `b`, within a micrometre (10⁻¹¹°: rounding of cut points). */
function betweenOnLine(a: Position, p: Position, b: Position): boolean {
  const [ax, ay] = [a[0] ?? 0, a[1] ?? 0];
  const [dx, dy] = [(b[0] ?? 0) - ax, (b[1] ?? 0) - ay];
  const [px, py] = [(p[0] ?? 0) - ax, (p[1] ?? 0) - ay];
  const length2 = dx * dx + dy * dy;
  const along = px * dx + py * dy;
  return Math.abs(px * dy - py * dx) <= 1e-11 * Math.sqrt(length2) && along > 0 && along < length2;
}
