import type { Pt } from "./planar.js";

/**
 * Makes neighbouring rings share their boundaries vertex for vertex: points within `tolerance` (each way)
 * become one, and a ring's edge that passes through another ring's vertex gets that vertex too (the rear line
 * of a block meets the side lines of the lots across it at such T-junctions). Rounded to a coordinate grid
 * afterwards, shared lot lines then stay exactly shared instead of opening slivers or overlapping by a
 * centimetre. Points are kept sorted by x, so each look-up scans only a narrow band of them.
 */
export function weld(rings: readonly Pt[][], tolerance = 1e-6): Pt[][] {
  const all = rings.flat();
  const order = all.map((_, i) => i).sort((i, j) => xOf(all[i]) - xOf(all[j]) || yOf(all[i]) - yOf(all[j]));
  const canonical: Pt[] = [];
  const canonicalOf = new Map<Pt, Pt>();
  for (const i of order) {
    const p = all[i] as Pt;
    let same: Pt | undefined;
    for (let k = canonical.length - 1; k >= 0 && xOf(canonical[k]) > p[0] - tolerance; k--) {
      if (Math.abs(yOf(canonical[k]) - p[1]) < tolerance) same = canonical[k];
    }
    if (!same) canonical.push(p);
    canonicalOf.set(p, same ?? p);
  }

  return rings.map((ring) => {
    const snapped = ring.map((p) => canonicalOf.get(p) ?? p);
    const out: Pt[] = [];
    for (let i = 0; i < snapped.length; i++) {
      const a = snapped[i] as Pt;
      const b = snapped[(i + 1) % snapped.length] as Pt;
      out.push(a);
      const ex = b[0] - a[0];
      const ey = b[1] - a[1];
      const squared = ex * ex + ey * ey;
      if (squared === 0) continue;
      const reach = tolerance * Math.sqrt(squared);
      const [xLow, xHigh] = [Math.min(a[0], b[0]) - tolerance, Math.max(a[0], b[0]) + tolerance];
      const between: { t: number; p: Pt }[] = [];
      for (let k = firstAtLeast(canonical, xLow); k < canonical.length && xOf(canonical[k]) <= xHigh; k++) {
        const c = canonical[k] as Pt;
        const cx = c[0] - a[0];
        const cy = c[1] - a[1];
        const t = (cx * ex + cy * ey) / squared;
        if (t <= 0 || t >= 1 || c === a || c === b || Math.abs(ex * cy - ey * cx) >= reach) continue;
        between.push({ t, p: c });
      }
      if (between.length > 0) for (const { p } of between.sort((x, y) => x.t - y.t)) out.push(p);
    }
    return out;
  });
}

const xOf = (p: Pt | undefined): number => p?.[0] ?? Number.NaN;
const yOf = (p: Pt | undefined): number => p?.[1] ?? Number.NaN;

/** The first index whose point has x ≥ `x`, in points sorted by x. */
function firstAtLeast(sorted: readonly Pt[], x: number): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (xOf(sorted[middle]) < x) low = middle + 1;
    else high = middle;
  }
  return low;
}
