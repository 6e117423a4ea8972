/**
 * The straight-line distance from `p` to the chord between vertices `a` and `b` of `xyz` (x, y, z triples), all on
 * the unit sphere. Cheap, and it orders edges by nearness as the geodesic distance does, give or take a margin.
 */
export function chordToSegment(p: readonly [number, number, number], xyz: Float64Array, a: number, b: number): number {
  const ax = xyz[a * 3] ?? 0;
  const ay = xyz[a * 3 + 1] ?? 0;
  const az = xyz[a * 3 + 2] ?? 0;
  const dx = (xyz[b * 3] ?? 0) - ax;
  const dy = (xyz[b * 3 + 1] ?? 0) - ay;
  const dz = (xyz[b * 3 + 2] ?? 0) - az;
  const length2 = dx * dx + dy * dy + dz * dz;
  const t =
    length2 > 0 ? Math.min(1, Math.max(0, ((p[0] - ax) * dx + (p[1] - ay) * dy + (p[2] - az) * dz) / length2)) : 0;
  return Math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy, p[2] - az - t * dz);
}
