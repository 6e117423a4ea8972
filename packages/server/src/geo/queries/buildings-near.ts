import { bboxOf, distanceToGeometry, expandBBox, intersects } from "../geometry/index.js";
import { boxGap, distanceBetweenBoundaries, LocalPlane } from "../geometry/local-plane.js";
import type { Building } from "../store/geo-rows.js";
import { readBuildings } from "../store/read-spatial-rows.js";
import { bboxMeets, type GeoSource } from "../store/spatial-filter.js";
import type { Area, LonLat } from "../types.js";

/**
 * Buildings within `metres` of a point or of a footprint (edge to edge; 0 when they touch or overlap), nearest
 * first, each with its distance.
 *
 * From a footprint, distances are measured on the plane tangent at its first vertex ({@link LocalPlane}: within
 * a millimetre of the geodesic distance at the few kilometres searched), after a box test that skips every
 * building that cannot be near enough; touching is decided by the exact predicate.
 */
export async function buildingsNear(
  source: GeoSource,
  from: LonLat | Area,
  metres: number,
): Promise<Array<{ building: Building; distanceM: number }>> {
  const box = "type" in from ? bboxOf(from) : bboxOf({ type: "Point", coordinates: from });
  const buildings = await readBuildings(source, (query) =>
    query.where(bboxMeets(source.dialect, "buildings", expandBBox(box, metres))),
  );
  const distanceTo = "type" in from ? distanceFromArea(from) : (footprint: Area) => distanceToGeometry(from, footprint);
  const hits: Array<{ building: Building; distanceM: number }> = [];
  for (const building of buildings) {
    const distanceM = distanceTo(building.footprint, metres);
    if (distanceM <= metres) hits.push({ building, distanceM });
  }
  return hits.sort((a, b) => a.distanceM - b.distanceM || a.building.buildingId - b.building.buildingId);
}

/** Slack for the box test, metres: a touching neighbour's box must never be skipped for a rounding error. */
export const BOX_SLACK_M = 0.01;

/** The plane distances from an area are measured on: tangent at its first vertex. */
export function planeOf(from: Area): LocalPlane {
  const [origin] = from.type === "Polygon" ? (from.coordinates[0] ?? []) : (from.coordinates[0]?.[0] ?? []);
  return new LocalPlane(origin ?? [0, 0]);
}

/** Measures from one area to others; answers `Infinity` for an area its box shows to be further than `metres`. */
export function distanceFromArea(from: Area, plane = planeOf(from)): (to: Area, metres: number) => number {
  const fromPlanar = plane.area(from);
  return (to, metres) => {
    const toPlanar = plane.area(to);
    if (boxGap(fromPlanar, toPlanar) > metres + BOX_SLACK_M) return Number.POSITIVE_INFINITY;
    return intersects(from, to) ? 0 : distanceBetweenBoundaries(fromPlanar, toPlanar);
  };
}
