import { feature, mesh } from "topojson-client";
import type { GeometryObject } from "topojson-specification";
import type { Polygon, Position } from "../../geo/types.js";
import { lazily, readAtlas } from "./atlas-file.js";
import { CoastBallTree } from "./coast-ball-tree.js";
import { LandIndex } from "./land-index.js";
import { unitVector } from "./unit-vector.js";

export interface Coastline {
  /** Every vertex of the land's edges, as longitude, latitude pairs. */
  lonLat: Float64Array;
  /** The same vertices on the unit sphere, x, y, z. */
  xyz: Float64Array;
  /** Each coastline edge as the index of its first vertex; the second is the next one. */
  edges: Uint32Array;
  /** The edges again, in a ball tree, to find those near a point without measuring them all. */
  tree: CoastBallTree;
  /** The land polygons, to tell land from sea. */
  landPolygons: Polygon[];
  /** The same polygons cut into bands of latitude, to tell it fast. */
  land: LandIndex;
}

/**
 * world-atlas's land-10m.json (Natural Earth 1:10m land), converted once, on first use: the land polygons, and
 * every edge of them but the cuts Natural Earth makes along the antimeridian and at the bottom of the map, which
 * are no coast.
 */
export const coastline = lazily(async (): Promise<Coastline> => {
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
  const landPolygons = ("features" in land ? land.features : [land]).flatMap(({ geometry }): Polygon[] => {
    if (geometry?.type === "MultiPolygon") return geometry.coordinates.map((rings) => polygonOf(rings));
    return geometry?.type === "Polygon" ? [polygonOf(geometry.coordinates)] : [];
  });
  const edgeList = Uint32Array.from(edges);
  return {
    lonLat,
    xyz,
    edges: edgeList,
    tree: new CoastBallTree(xyz, edgeList),
    landPolygons,
    land: new LandIndex(landPolygons),
  };
});

function polygonOf(rings: Position[][]): Polygon {
  return { type: "Polygon", coordinates: rings };
}

/** Whether an edge is one of Natural Earth's cuts: along the antimeridian, or along the bottom of the map. */
function isCut([lonA = 0, latA = 0]: Position, [lonB = 0, latB = 0]: Position, southmost: number): boolean {
  return (Math.abs(lonA) === 180 && lonA === lonB) || (latA === southmost && latB === southmost);
}
