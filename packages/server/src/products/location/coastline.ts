import { feature, mesh } from "topojson-client";
import type { GeometryObject } from "topojson-specification";
import { bboxOf, containsPoint, distanceToGeometry } from "../../geo/geometry/index.js";
import type { BBox, LonLat, Polygon, Position } from "../../geo/types.js";
import { lazily, readAtlas } from "./atlas-file.js";

/** Mean Earth radius, metres: only to turn a unit-sphere margin into metres while choosing candidate edges. */
const EARTH_RADIUS_M = 6_371_008.8;

/** Candidate edges are those within this much of the nearest on the unit sphere: 1 % and about 1 km more. */
const RELATIVE_MARGIN = 0.01;
const ABSOLUTE_MARGIN = 1000 / EARTH_RADIUS_M;

interface Coastline {
  /** Every vertex of the land's edges, as longitude, latitude pairs. */
  lonLat: Float64Array;
  /** The same vertices on the unit sphere, x, y, z. */
  xyz: Float64Array;
  /** Each coastline edge as the index of its first vertex; the second is the next one. */
  edges: Uint32Array;
  /** The land polygons with their bounding boxes, to tell land from sea. */
  land: Array<{ polygon: Polygon; bbox: BBox }>;
  /**
   * Runs of {@link BLOCK} consecutive edges, each with a ball (centre x, y, z and radius on the unit sphere)
   * holding all of them: a point's distance to the ball bounds its distance to every edge in it from below, so a
   * look-up measures the few blocks near the point instead of all 400,000 edges.
   */
  blocks: Float64Array;
}

const BLOCK = 64;

/**
 * world-atlas's land-10m.json (Natural Earth 1:10m land), converted once: the land polygons, and every edge of
 * them but the cuts Natural Earth makes along the antimeridian and at the bottom of the map, which are no coast.
 */
const coastline = lazily(async (): Promise<Coastline> => {
  const topology = await readAtlas("world-atlas/land-10m.json");
  const object = topology.objects.land as GeometryObject;
  const lines = mesh(topology, object).coordinates;
  const count = lines.reduce((sum, line) => sum + line.length, 0);
  const lonLat = new Float64Array(count * 2);
  const xyz = new Float64Array(count * 3);
  const edges: number[] = [];
  let southmost = Number.POSITIVE_INFINITY;
  for (const line of lines) for (const [, lat = 0] of line) southmost = Math.min(southmost, lat);
  let index = 0;
  for (const line of lines) {
    for (const [i, [lon = 0, lat = 0]] of line.entries()) {
      lonLat.set([lon, lat], index * 2);
      xyz.set(unitVector(lon, lat), index * 3);
      const previous = line[i - 1];
      if (previous && !isCut(previous, [lon, lat], southmost)) edges.push(index - 1);
      index += 1;
    }
  }
  const land = feature(topology, object);
  const polygons = ("features" in land ? land.features : [land]).flatMap(({ geometry }): Position[][][] => {
    if (geometry?.type === "MultiPolygon") return geometry.coordinates;
    return geometry?.type === "Polygon" ? [geometry.coordinates] : [];
  });
  const edgeList = Uint32Array.from(edges);
  return {
    lonLat,
    xyz,
    edges: edgeList,
    blocks: blockBalls(xyz, edgeList),
    land: polygons.map((rings) => {
      const polygon: Polygon = { type: "Polygon", coordinates: rings };
      return { polygon, bbox: bboxOf(polygon) };
    }),
  };
});

/**
 * How far `point` lies from the coast — the nearest edge of Natural Earth's 1:10m land polygons, metres on
 * WGS 84 — and whether it lies on land. Natural Earth draws the coast to a few hundred metres at best and leaves
 * out estuaries, small inlets and islands, and world-atlas quantizes it further: read distances under a few
 * kilometres as "near the coast". Lakes are not coast: Natural Earth's land covers them, the Great Lakes too.
 *
 * @example
 * await coastDistance([-71.08, 42.37]); //= { distanceM: 3000…, onLand: true } (Cambridge, MA)
 */
export async function coastDistance(point: LonLat): Promise<{ distanceM: number; onLand: boolean }> {
  const { lonLat, xyz, edges, land, blocks } = await coastline();
  const p = unitVector(point[0], point[1]);
  const blockCount = blocks.length / 4;
  const bounds = new Float64Array(blockCount);
  for (let b = 0; b < blockCount; b++) {
    const gap = Math.hypot(
      p[0] - (blocks[b * 4] ?? 0),
      p[1] - (blocks[b * 4 + 1] ?? 0),
      p[2] - (blocks[b * 4 + 2] ?? 0),
    );
    bounds[b] = Math.max(0, gap - (blocks[b * 4 + 3] ?? 0));
  }
  const order = Array.from({ length: blockCount }, (_, b) => b).sort((a, b) => (bounds[a] ?? 0) - (bounds[b] ?? 0));
  const edgesOf = (block: number) => edges.subarray(block * BLOCK, Math.min(edges.length, (block + 1) * BLOCK));

  let least = Number.POSITIVE_INFINITY;
  for (const block of order) {
    if ((bounds[block] ?? 0) > least) break;
    for (const a of edgesOf(block)) least = Math.min(least, chordToSegment(p, xyz, a, a + 1));
  }
  const limit = least * (1 + RELATIVE_MARGIN) + ABSOLUTE_MARGIN;
  const candidates: Position[][] = [];
  for (const block of order) {
    if ((bounds[block] ?? 0) > limit) break;
    for (const a of edgesOf(block)) {
      if (chordToSegment(p, xyz, a, a + 1) > limit) continue;
      candidates.push([
        [lonLat[a * 2] ?? 0, lonLat[a * 2 + 1] ?? 0],
        [lonLat[a * 2 + 2] ?? 0, lonLat[a * 2 + 3] ?? 0],
      ]);
    }
  }
  const distanceM = distanceToGeometry(point, { type: "MultiLineString", coordinates: candidates });
  const [lon, lat] = point;
  const onLand = land.some(
    ({ polygon, bbox }) =>
      lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3] && containsPoint(polygon, point),
  );
  return { distanceM, onLand };
}

/** Whether an edge is one of Natural Earth's cuts: along the antimeridian, or along the bottom of the map. */
function isCut([lonA = 0, latA = 0]: Position, [lonB = 0, latB = 0]: Position, southmost: number): boolean {
  return (Math.abs(lonA) === 180 && lonA === lonB) || (latA === southmost && latB === southmost);
}

function unitVector(lon: number, lat: number): [number, number, number] {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lon * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

/** The straight-line distance from `p` to the chord between vertices `a` and `b`, all on the unit sphere. */
function chordToSegment(p: [number, number, number], xyz: Float64Array, a: number, b: number): number {
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

/** The ball around each run of {@link BLOCK} edges: centre (the mean of their vertices) and radius. */
function blockBalls(xyz: Float64Array, edges: Uint32Array): Float64Array {
  const count = Math.ceil(edges.length / BLOCK);
  const balls = new Float64Array(count * 4);
  for (let b = 0; b < count; b++) {
    const run = edges.subarray(b * BLOCK, Math.min(edges.length, (b + 1) * BLOCK));
    const vertices = [...run].flatMap((a) => [a, a + 1]);
    const centre = [0, 0, 0];
    for (const v of vertices)
      for (let k = 0; k < 3; k++) centre[k] = (centre[k] ?? 0) + (xyz[v * 3 + k] ?? 0) / vertices.length;
    let radius = 0;
    for (const v of vertices) {
      radius = Math.max(
        radius,
        Math.hypot(
          (xyz[v * 3] ?? 0) - (centre[0] ?? 0),
          (xyz[v * 3 + 1] ?? 0) - (centre[1] ?? 0),
          (xyz[v * 3 + 2] ?? 0) - (centre[2] ?? 0),
        ),
      );
    }
    balls.set([centre[0] ?? 0, centre[1] ?? 0, centre[2] ?? 0, radius], b * 4);
  }
  return balls;
}
