import type { PolicyBuilding } from "@lotline/contract";
import { sql } from "kysely";
import { intersectionArea } from "../geo/geometry/intersection-area.js";
import { mergeParts } from "../geo/geometry/subdivide.js";
import { bboxMeets, type GeoSource } from "../geo/store/spatial-filter.js";
import { decodeWkb } from "../geo/store/wkb.js";
import type { Area, LonLat } from "../geo/types.js";
import type { EventArea, Meeting } from "./event-area.js";
import type { EventPart } from "./event-parts.js";

/** Parcels whose properties, boundaries and buildings are read a statement. */
const CHUNK = 2000;

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
 * location or one of its insured buildings. The parcels in the event's extent come through their spatial index as
 * ids; their properties, boundaries and buildings are then read and tested a chunk at a time, so memory stays
 * bounded whatever the portfolio. `onImpacts` receives each chunk's impacts.
 */
export async function findImpacts(
  source: GeoSource,
  event: EventArea,
  onImpacts: (impacts: Impact[]) => Promise<void>,
): Promise<void> {
  const parcelIds = (
    await source.db
      .selectFrom("parcels")
      .select("parcel_id")
      .where(bboxMeets(source.dialect, "parcels", event.extent))
      .execute()
  ).map((row) => row.parcel_id);
  parcelIds.sort((a, b) => a - b);
  for (let start = 0; start < parcelIds.length; start += CHUNK) {
    const impacts = await parcelImpacts(source, event, parcelIds.slice(start, start + CHUNK));
    if (impacts.length > 0) await onImpacts(impacts);
  }
  await onImpacts(await impactsWithoutParcel(source, event));
}

async function parcelImpacts(source: GeoSource, event: EventArea, parcelIds: number[]): Promise<Impact[]> {
  const candidates = await source.db
    .selectFrom("properties")
    .innerJoin("parcels", "parcels.parcel_id", "properties.parcel_id")
    .select(["properties.property_id", "properties.org_id", "parcels.parcel_id", "parcels.area_m2", "parcels.boundary"])
    .where("properties.parcel_id", "in", parcelIds)
    .execute();
  // A parcel held by several organizations' properties is tested once.
  const meetings = new Map<number, { boundary: Area; met: Meeting } | undefined>();
  for (const candidate of candidates) {
    if (meetings.has(candidate.parcel_id)) continue;
    const boundary = decodeWkb(candidate.boundary) as Area;
    const met = event.meeting(boundary);
    meetings.set(candidate.parcel_id, met && { boundary, met });
  }
  const met = [...meetings].flatMap(([parcelId, meeting]) => (meeting ? [parcelId] : []));
  if (met.length === 0) return [];
  const footprints = await buildingsOf(source, met);
  const impacts: Impact[] = [];
  for (const candidate of candidates) {
    const meeting = meetings.get(candidate.parcel_id);
    if (!meeting) continue;
    const { boundary, met } = meeting;
    const buildings = footprints.get(candidate.parcel_id) ?? [];
    impacts.push({
      orgId: candidate.org_id,
      propertyId: candidate.property_id,
      parcelShareInside: met.within ? 1 : shareInside(boundary, met, candidate.area_m2),
      buildingsInside: buildings.filter((footprint) => event.meeting(footprint)).length,
      buildingsTotal: buildings.length,
      intensity: highestIntensity(met.parts),
    });
  }
  return impacts;
}

/** The share of a parcel across the event's edge inside it, measured against the parts it meets put together. */
function shareInside(boundary: Area, met: Meeting, areaM2: number): number {
  const inside = intersectionArea(boundary, mergeParts(met.parts.map((part) => part.polygon)));
  return Math.min(1, inside / areaM2);
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
async function impactsWithoutParcel(source: GeoSource, event: EventArea): Promise<Impact[]> {
  const [west, south, east, north] = event.extent;
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
    const at = event.holding(point);
    const buildingsMet = buildings.map((footprint) => event.meeting(footprint));
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
