import { bboxOf, containsPoint } from "../../geo/geometry/index.js";
import type { BBox, Polygon, Position } from "../../geo/types.js";

/** Latitude bands per degree: a band of 0.1° (11 km) crosses a continent's coast a few hundred times, not 100,000. */
const BANDS_PER_DEGREE = 10;
const BAND_COUNT = 180 * BANDS_PER_DEGREE;

/** A land polygon cut down to what matters for points in one band, with the whole polygon's bounding box. */
interface BandPolygon {
  polygon: Polygon;
  bbox: BBox;
}

/**
 * Whether a point lies on land, answered as {@link containsPoint} answers it for each land polygon, but from
 * polygons cut down to the point's band of latitude: a continent has some 100,000 vertices, and the crossing-number
 * test walks all of them, yet only edges that reach the point's latitude can cross its ray or hold it.
 *
 * The cut keeps each ring's vertices in order, dropping any vertex that lies, with both its neighbours, wholly
 * above the band or wholly below it; the edges skipping over dropped vertices stay on that side too. So for a point
 * in the band the cut ring has exactly the same edges reaching its latitude, the same arithmetic on them and so
 * the same answer — holes and boundary points (which count as inside) included.
 */
export class LandIndex {
  private readonly bands: BandPolygon[][] = Array.from({ length: BAND_COUNT }, () => []);

  constructor(polygons: readonly Polygon[]) {
    for (const polygon of polygons) {
      const bbox = bboxOf(polygon);
      for (const [band, rings] of ringsPerBand(polygon.coordinates)) {
        this.bands[band]?.push({ polygon: { type: "Polygon", coordinates: rings }, bbox });
      }
    }
  }

  /** Whether `point` lies in any of the polygons, on a boundary included. */
  contains(point: Position): boolean {
    const [lon = Number.NaN, lat = Number.NaN] = point;
    return (this.bands[bandOf(lat)] ?? []).some(
      ({ polygon, bbox }) =>
        lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3] && containsPoint(polygon, point),
    );
  }
}

/**
 * The band of a latitude. It must never decrease as the latitude grows: that alone makes "below band b" mean
 * "below every point of band b" for the vertices and the points alike, whatever the rounding.
 */
function bandOf(lat: number): number {
  return Math.min(BAND_COUNT - 1, Math.max(0, Math.floor((lat + 90) * BANDS_PER_DEGREE)));
}

/** Each ring cut down for every band it reaches (see {@link LandIndex}); a ring reaching no band is left out. */
function ringsPerBand(rings: readonly Position[][]): Map<number, Position[][]> {
  const perBand = new Map<number, Position[][]>();
  for (const ring of rings) {
    for (const [band, kept] of cutRing(ring)) {
      const list = perBand.get(band) ?? [];
      list.push(kept);
      perBand.set(band, list);
    }
  }
  return perBand;
}

/**
 * A closed ring (last position repeating the first) taken as a cycle: a vertex is kept for the bands its own and
 * its two neighbours' latitudes span, and each band's kept vertices, closed again, make that band's ring.
 */
function cutRing(ring: readonly Position[]): Map<number, Position[]> {
  const kept = new Map<number, Position[]>();
  const count = ring.length - 1;
  const first = ring[0];
  const last = ring[count];
  if (!first || !last || first[0] !== last[0] || first[1] !== last[1]) return wholeRing(ring);
  const latOf = (i: number) => ring[i]?.[1] ?? 0;
  for (let i = 0; i < count; i++) {
    const before = latOf(i === 0 ? count - 1 : i - 1);
    const after = latOf(i + 1);
    const lat = latOf(i);
    const top = bandOf(Math.max(before, lat, after));
    for (let band = bandOf(Math.min(before, lat, after)); band <= top; band++) {
      const list = kept.get(band);
      if (list) list.push(ring[i] ?? first);
      else kept.set(band, [ring[i] ?? first]);
    }
  }
  for (const list of kept.values()) list.push(list[0] ?? first);
  return kept;
}

/** A ring that is not closed, uncut, for every band of its latitudes: never expected, but answered the same. */
function wholeRing(ring: readonly Position[]): Map<number, Position[]> {
  const lats = ring.map(([, lat = 0]) => lat);
  const lowest = lats.reduce((low, lat) => Math.min(low, lat), Number.POSITIVE_INFINITY);
  const highest = lats.reduce((high, lat) => Math.max(high, lat), Number.NEGATIVE_INFINITY);
  const kept = new Map<number, Position[]>();
  for (let band = bandOf(lowest); band <= bandOf(highest); band++) kept.set(band, [...ring]);
  return kept;
}
