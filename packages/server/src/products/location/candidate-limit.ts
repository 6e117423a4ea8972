/** Mean Earth radius, metres: only to turn a margin in metres into one on the unit sphere. */
const EARTH_RADIUS_M = 6_371_008.8;

/** Candidate edges are those within this much of the nearest on the unit sphere: 1 % and about 1 km more. */
const RELATIVE_MARGIN = 0.01;
const ABSOLUTE_MARGIN = 1000 / EARTH_RADIUS_M;

/**
 * How far (chord distance on the unit sphere) an edge may lie from a point and still be measured on the
 * ellipsoid, given the least chord distance to any edge: the edge nearest by chord need not be the one nearest
 * along the ellipsoid, but the one that is lies within these margins of it.
 */
export function candidateLimit(leastChord: number): number {
  return leastChord * (1 + RELATIVE_MARGIN) + ABSOLUTE_MARGIN;
}
