import type { PolicyBuilding } from "@lotline/contract";
import { sql } from "kysely";
import { relateAreas } from "../geo/geometry/areas-meet.js";
import { bboxOf } from "../geo/geometry/bbox-of.js";
import { containsPoint } from "../geo/geometry/contains-point.js";
import { intersectionArea } from "../geo/geometry/intersection-area.js";
import { mergeParts } from "../geo/geometry/subdivide.js";
import { shapeRows } from "../geo/store/read-spatial-rows.js";
import { bboxMeets, type GeoSource } from "../geo/store/spatial-filter.js";
import { decodeWkb } from "../geo/store/wkb.js";
import type { Area, LonLat } from "../geo/types.js";
import type { EventPart, EventPartIndex } from "./event-parts.js";

/** Parcels whose boundaries and buildings are read a statement. */
const CHUNK = 500;

/** A property an event's area meets, as stored in `event_impacts`. */
export interface Impact {
  orgId: string;
  propertyId: number;
  parcelShareInside: number | null;
  buildingsInside: number;
  buildingsTotal: number;
  intensity: number | null;
}

/**
 * Every property (of every organization) that the event's area meets: by its parcel when it has one (the share
 * of the parcel inside by geodesic area, and how many of the parcel's buildings the area meets), else by its
 * location or one of its insured buildings. Candidates come through the parcels' spatial index inside the event's
 * extent; boundaries and buildings are then read and tested a chunk at a time, so memory stays bounded whatever
 * the portfolio. `onImpacts` receives each chunk's impacts, in no particular order.
 */
export async function findImpacts(
  source: GeoSource,
  parts: EventPartIndex,
  onImpacts: (impacts: Impact[]) => Promise<void>,
): Promise<void> {
  const withParcel = await source.db
    .selectFrom("parcels")
    .innerJoin("properties", "properties.parcel_id", "parcels.parcel_id")
    .select(["properties.property_id", "properties.org_id", "parcels.parcel_id", "parcels.area_m2"])
    .where(bboxMeets(source.dialect, "parcels", parts.extent))
    .orderBy("parcels.parcel_id")
    .execute();
  for (let start = 0; start < withParcel.length; start += CHUNK) {
    await onImpacts(await parcelImpacts(source, parts, withParcel.slice(start, start + CHUNK)));
  }
  await onImpacts(await impactsWithoutParcel(source, parts));
}

interface ParcelCandidate {
  property_id: number;
  org_id: string;
  parcel_id: number;
  area_m2: number;
}

async function parcelImpacts(source: GeoSource, parts: EventPartIndex, candidates: ParcelCandidate[]) {
  const parcelIds = [...new Set(candidates.map((candidate) => candidate.parcel_id))];
  const boundaries = new Map(
    (await shapeRows(source, "parcels", parcelIds)).map((row) => [row.id, decodeWkb(row.geometry) as Area]),
  );
  const footprints = await buildingsOf(source, parcelIds);
  const impacts: Impact[] = [];
  for (const candidate of candidates) {
    const boundary = boundaries.get(candidate.parcel_id);
    if (!boundary) continue;
    const met = meeting(parts, boundary);
    if (!met) continue;
    const buildings = footprints.get(candidate.parcel_id) ?? [];
    impacts.push({
      orgId: candidate.org_id,
      propertyId: candidate.property_id,
      parcelShareInside: met.within
        ? 1
        : Math.min(
            1,
            intersectionArea(boundary, mergeParts(met.parts.map((part) => part.polygon))) / candidate.area_m2,
          ),
      buildingsInside: buildings.filter((footprint) => meeting(parts, footprint)).length,
      buildingsTotal: buildings.length,
      intensity: highestIntensity(met.parts),
    });
  }
  return impacts;
}

/**
 * The event's parts that `area` meets, and whether one of them covers it whole; undefined when it meets none.
 * Parts meet only along their cuts, so an area inside the event but across a cut is `crossing` two of them.
 */
function meeting(parts: EventPartIndex, area: Area): { parts: EventPart[]; within: boolean } | undefined {
  const met: EventPart[] = [];
  let within = false;
  for (const part of parts.near(bboxOf(area))) {
    const relation = relateAreas(area, part.polygon);
    if (relation === "apart") continue;
    met.push(part);
    within ||= relation === "within";
  }
  return met.length === 0 ? undefined : { parts: met, within };
}

async function buildingsOf(source: GeoSource, parcelIds: number[]): Promise<Map<number, Area[]>> {
  const rows = await source.db
    .selectFrom("buildings")
    .select(["parcel_id", "footprint"])
    .where("parcel_id", "in", parcelIds)
    .execute();
  const byParcel = new Map<number, Area[]>();
  for (const row of rows) {
    if (row.parcel_id === null) continue;
    byParcel.set(row.parcel_id, [...(byParcel.get(row.parcel_id) ?? []), decodeWkb(row.footprint) as Area]);
  }
  return byParcel;
}

/** Properties without a parcel: by their location, or any insured building the area meets. */
async function impactsWithoutParcel(source: GeoSource, parts: EventPartIndex): Promise<Impact[]> {
  const [west, south, east, north] = parts.extent;
  const rows = await source.db
    .selectFrom("properties")
    .select(["property_id", "org_id", "lon", "lat", "policy_buildings"])
    .where("parcel_id", "is", null)
    .where(sql<boolean>`lon between ${west} and ${east} and lat between ${south} and ${north}`)
    .execute();
  const impacts: Impact[] = [];
  for (const row of rows) {
    const point: LonLat = [row.lon ?? 0, row.lat ?? 0];
    const buildings = (JSON.parse(row.policy_buildings) as PolicyBuilding[]).map(
      (building) => building.footprint as Area,
    );
    const at = parts
      .near([point[0], point[1], point[0], point[1]])
      .filter((part) => containsPoint(part.polygon, point));
    const buildingsMet = buildings.map((footprint) => meeting(parts, footprint));
    if (at.length === 0 && buildingsMet.every((met) => met === undefined)) continue;
    impacts.push({
      orgId: row.org_id,
      propertyId: row.property_id,
      parcelShareInside: null,
      buildingsInside: buildingsMet.filter((met) => met !== undefined).length,
      buildingsTotal: buildings.length,
      intensity: highestIntensity([...at, ...buildingsMet.flatMap((met) => met?.parts ?? [])]),
    });
  }
  return impacts;
}

function highestIntensity(parts: EventPart[]): number | null {
  const values = parts.flatMap((part) => (part.intensity === null ? [] : [part.intensity]));
  return values.length === 0 ? null : Math.max(...values);
}
