import type { Pt } from "./planar.js";
import type { Random } from "./prng.js";

/**
 * Footprint outlines in a lot's own coordinates: `a` metres along the street, `b` metres back from the front
 * wall (a porch may stand forward of it, at negative `b`). All are simple orthogonal polygons: rectangles,
 * L- and T-shapes, and rectangles with a bump.
 */
export type Outline = Pt[];

export function rectangle(width: number, depth: number): Outline {
  return [
    [0, 0],
    [width, 0],
    [width, depth],
    [0, depth],
  ];
}

/** A rectangle with one rear corner taken out (which one, and how much, from `random`). */
export function lShape(width: number, depth: number, random: Random): Outline {
  const cutWidth = width * random.between(0.35, 0.5);
  const cutDepth = depth * random.between(0.35, 0.5);
  const outline: Outline = [
    [0, 0],
    [width, 0],
    [width, depth - cutDepth],
    [width - cutWidth, depth - cutDepth],
    [width - cutWidth, depth],
    [0, depth],
  ];
  return random.chance(0.5) ? outline : mirror(outline, width);
}

/** A front wing across the whole width and a narrower wing behind it, centred. */
export function tShape(width: number, depth: number, random: Random): Outline {
  const front = depth * random.between(0.5, 0.62);
  const stem = width * random.between(0.4, 0.55);
  const [l, r] = [(width - stem) / 2, (width + stem) / 2];
  return [
    [0, 0],
    [width, 0],
    [width, front],
    [r, front],
    [r, depth],
    [l, depth],
    [l, front],
    [0, front],
  ];
}

/** A rectangle with a porch or bay, 1.5–2.5 m deep, standing forward of the front wall. */
export function withBump(width: number, depth: number, random: Random): Outline {
  const bumpWidth = width * random.between(0.28, 0.45);
  const start = random.between(0.1, 0.9 - bumpWidth / width) * width;
  const bumpDepth = random.between(1.5, 2.5);
  return [
    [0, 0],
    [start, 0],
    [start, -bumpDepth],
    [start + bumpWidth, -bumpDepth],
    [start + bumpWidth, 0],
    [width, 0],
    [width, depth],
    [0, depth],
  ];
}

/** A house's outline, one of the four kinds. */
export function houseOutline(width: number, depth: number, random: Random): Outline {
  const draw = random.next();
  if (draw < 0.35) return rectangle(width, depth);
  if (draw < 0.6) return lShape(width, depth, random);
  if (draw < 0.75) return tShape(width, depth, random);
  return withBump(width, depth, random);
}

function mirror(outline: Outline, width: number): Outline {
  return outline.map(([a, b]) => [width - a, b] as Pt).reverse();
}
