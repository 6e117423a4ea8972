import polygonClipping from "polygon-clipping";
import type { Area, BBox, Polygon, Position } from "../types.js";
import { bboxOf } from "./bbox-of.js";
import { clipToBox } from "./clip-to-box.js";
import { vertexCount } from "./positions.js";

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
 * The box is halved across its longer side until each half holds few enough positions (Sutherland–Hodgman, linear
 * in the positions at each level); each final piece is then cleaned by polygon-clipping, which drops the
 * zero-width runs along a cut that Sutherland–Hodgman leaves between two arms of a U. Undefined when the area is
 * small enough to stay whole, or when a piece could not be cleaned: the whole area is then always right.
 */
export function subdivide(area: Area, maxPositions = PART_MAX_POSITIONS): Polygon[] | undefined {
  if (vertexCount(area) <= maxPositions) return undefined;
  try {
    return split(area, bboxOf(area), maxPositions, 0);
  } catch {
    return undefined;
  }
}

function split(area: Area, box: BBox, maxPositions: number, depth: number): Polygon[] {
  if (vertexCount(area) <= maxPositions || depth === MAX_DEPTH) return cleaned(area);
  return halves(box).flatMap((half) => {
    const inside = clipToBox(area, half);
    return inside.length === 0
      ? []
      : split({ type: "MultiPolygon", coordinates: inside }, half, maxPositions, depth + 1);
  });
}

/** The two halves of a box, cut across its longer side (in degrees: parts need not be square, only small). */
function halves([west, south, east, north]: BBox): [BBox, BBox] {
  if (east - west >= north - south) {
    const middle = (west + east) / 2;
    return [
      [west, south, middle, north],
      [middle, south, east, north],
    ];
  }
  const middle = (south + north) / 2;
  return [
    [west, south, east, middle],
    [west, middle, east, north],
  ];
}

/** The polygons of a piece as polygon-clipping reads them: valid, each its own part. */
function cleaned(area: Area): Polygon[] {
  const coordinates = area.type === "Polygon" ? [area.coordinates] : area.coordinates;
  return polygonClipping
    .union(coordinates as polygonClipping.MultiPolygon)
    .map((polygon) => ({ type: "Polygon", coordinates: polygon as Position[][] }));
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
