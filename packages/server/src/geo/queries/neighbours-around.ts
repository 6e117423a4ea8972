import { bboxOf, expandBBox } from "../geometry/index.js";
import type { LocalPlane } from "../geometry/local-plane.js";
import type { Building } from "../store/geo-rows.js";
import { PLAIN_COLUMNS } from "../store/geo-rows.js";
import { buildingsOfRows } from "../store/read-spatial-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";
import { BOX_SLACK_M, distanceFromArea, planeOf } from "./buildings-near.js";

/** The other buildings around one: how many stand within each zone, and the nearest of them. */
export interface Neighbourhood {
  /** For each zone, in the order given, how many other buildings stand within it (touching counts as 0 m). */
  within: number[];
  /** The nearest other building within the widest zone (the lower id of two as near), with its distance. */
  nearest: { building: Pick<Building, "buildingId" | "datasetId">; distanceM: number } | undefined;
  /** The datasets of the buildings within the widest zone. */
  datasetIds: number[];
}

/**
 * The other buildings within `zones` metres of a building, edge to edge, with the same answers as measuring each
 * ({@link distanceFromArea}), but measuring only where the boxes leave the answer open. A footprint touches each
 * side of its box, so two footprints stand no further apart than the farther ends of any side of one box from any
 * side of the other, and no nearer than the gap between the boxes: a neighbour 60 m away is within 100 m and not
 * within 30 m whatever its shape. In a city most of the eighty or so buildings within 100 m are decided so, and their
 * footprints are neither read nor parsed; at a state's size most of them are met by no order before.
 */
export async function neighboursAround(
  source: GeoSource,
  building: Pick<Building, "buildingId" | "footprint">,
  zones: readonly number[],
): Promise<Neighbourhood> {
  const widest = Math.max(...zones);
  const rows = (
    await source.db
      .selectFrom("buildings")
      .select([...PLAIN_COLUMNS.buildings, "min_lon", "min_lat", "max_lon", "max_lat"])
      .where(bboxMeets(source.dialect, "buildings", expandBBox(bboxOf(building.footprint), widest)))
      .execute()
  ).filter((row) => row.building_id !== building.buildingId);
  const plane = planeOf(building.footprint);
  const from = plane.area(building.footprint).box;
  const bounds = rows.map((row) => distanceBounds(plane, from, [row.min_lon, row.min_lat, row.max_lon, row.max_lat]));
  // The nearest is among those that may be nearer than the least of the farthest distances.
  const nearestAtMost = Math.min(widest, ...bounds.map(({ most }) => most));
  const open = (index: number) => {
    const { least, most } = bounds[index] as DistanceBounds;
    return least <= nearestAtMost || zones.some((zone) => least <= zone && most > zone);
  };
  const within = zones.map((zone) => bounds.filter(({ most }) => most <= zone).length);
  const datasetIds = rows.filter((_, i) => (bounds[i] as DistanceBounds).most <= widest).map((row) => row.dataset_id);
  let nearest: Neighbourhood["nearest"];
  const distanceTo = distanceFromArea(building.footprint, plane);
  const mostOf = new Map(rows.map((row, i) => [row.building_id, (bounds[i] as DistanceBounds).most]));
  const measured = await buildingsOfRows(
    source,
    rows.filter((_, i) => open(i)),
  );
  for (const other of measured) {
    const distanceM = distanceTo(other.footprint, widest);
    if (distanceM > widest) continue;
    const most = mostOf.get(other.buildingId) as number;
    for (const [z, zone] of zones.entries()) if (distanceM <= zone && most > zone) within[z] = (within[z] ?? 0) + 1;
    if (most > widest) datasetIds.push(other.datasetId);
    if (
      !nearest ||
      distanceM < nearest.distanceM ||
      (distanceM === nearest.distanceM && other.buildingId < nearest.building.buildingId)
    ) {
      nearest = { building: other, distanceM };
    }
  }
  return { within, nearest, datasetIds };
}

/** How near and how far apart two footprints can be, from their boxes alone, m. */
interface DistanceBounds {
  least: number;
  most: number;
}

/**
 * The bounds of the distance from a footprint whose box on `plane` is `from` to one whose longitude and latitude
 * box is `box`. That box's sides are lines of one longitude or latitude: on the plane nearly straight, each within
 * the gap of its middle from the straight line between its ends, which widens both bounds (with
 * {@link BOX_SLACK_M} for rounding). Distances are compared squared: it runs for every building near an order's
 * structures, most of them already parsed, and with `Math.hypot` it cost more than measuring them.
 */
function distanceBounds(plane: LocalPlane, from: readonly number[], [west, south, east, north]: BBox): DistanceBounds {
  const corners = [
    plane.point(west, south),
    plane.point(east, south),
    plane.point(east, north),
    plane.point(west, north),
  ];
  const middles = [
    plane.point((west + east) / 2, south),
    plane.point(east, (south + north) / 2),
    plane.point((west + east) / 2, north),
    plane.point(west, (south + north) / 2),
  ];
  let bulge = 0;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < 4; i++) {
    const [x, y] = corners[i] as Point;
    bulge = Math.max(bulge, gapFromLine(middles[i] as Point, corners[i] as Point, corners[(i + 1) % 4] as Point));
    [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
  }
  const slack = bulge + BOX_SLACK_M;
  const [x0, y0, x1, y1] = from as [number, number, number, number];
  const dx = Math.max(0, x0 - maxX, minX - x1);
  const dy = Math.max(0, y0 - maxY, minY - y1);
  // The from box's sides, as the x and y of their ends: bottom, right, top, left.
  const fromSides = [x0, y0, x1, y0, x1, y0, x1, y1, x1, y1, x0, y1, x0, y1, x0, y0];
  let most = Infinity;
  for (let a = 0; a < 16; a += 4) {
    for (let b = 0; b < 4; b++) {
      const [px, py] = corners[b] as Point;
      const [qx, qy] = corners[(b + 1) % 4] as Point;
      let farthest = 0;
      for (let end = a; end < a + 4; end += 2) {
        const ex = fromSides[end] as number;
        const ey = fromSides[end + 1] as number;
        farthest = Math.max(farthest, (ex - px) ** 2 + (ey - py) ** 2, (ex - qx) ** 2 + (ey - qy) ** 2);
      }
      most = Math.min(most, farthest);
    }
  }
  return { least: Math.max(0, Math.sqrt(dx * dx + dy * dy) - slack), most: Math.sqrt(most) + slack };
}

type Point = [number, number];

/** How far `p` lies from the straight line through `a` and `b`. */
function gapFromLine(p: Point, a: Point, b: Point): number {
  const [abx, aby] = [b[0] - a[0], b[1] - a[1]];
  const length = Math.sqrt(abx * abx + aby * aby);
  if (length === 0) return Math.sqrt((p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2);
  return Math.abs(abx * (a[1] - p[1]) - (a[0] - p[0]) * aby) / length;
}
