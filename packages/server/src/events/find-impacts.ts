import type { PolicyBuilding, PropertyBuilding } from "@lotline/contract";
import { sql } from "kysely";
import { recomputeInputs } from "../changes/recompute-inputs.js";
import { geodesicArea } from "../geo/geometry/geodesic-area.js";
import { intersectionArea } from "../geo/geometry/intersection-area.js";
import { mergeParts } from "../geo/geometry/subdivide.js";
import { shapeRows } from "../geo/store/read-spatial-rows.js";
import { bboxMeets, type GeoSource } from "../geo/store/spatial-filter.js";
import { decodeWkb } from "../geo/store/wkb.js";
import type { Area, BBox, LonLat } from "../geo/types.js";
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
 * of the parcel inside by geodesic area, and how many of the parcel's buildings the area meets), by the boundary
 * the user drew in its order when there is one, else by its location or one of its insured buildings. The parcels in the event's extent come through their spatial index as
 * ids; their properties and buildings are then read and tested a chunk at a time (geometry only near the event's
 * edge), so memory stays bounded whatever the portfolio. `onImpacts` receives each chunk's impacts.
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
  await onImpacts(await drawnLotImpacts(source, event));
}

async function parcelImpacts(source: GeoSource, event: EventArea, parcelIds: number[]): Promise<Impact[]> {
  const candidates = await source.db
    .selectFrom("properties")
    .innerJoin("parcels", "parcels.parcel_id", "properties.parcel_id")
    .select(["properties.property_id", "properties.org_id", "parcels.parcel_id", "parcels.area_m2", ...BOX])
    .where("properties.parcel_id", "in", parcelIds)
    .where("properties.lot_drawn", "=", 0)
    .execute();
  // A parcel held by several organizations' properties is tested once.
  const parcels = new Map(
    candidates.map((candidate) => [candidate.parcel_id, { ...candidate, id: candidate.parcel_id }]),
  );
  const meetings = await meetingsOf(source, "parcels", event, [...parcels.values()]);
  if (meetings.size === 0) return [];
  const buildings = await buildingsMeeting(source, event, [...meetings.keys()]);
  const impacts: Impact[] = [];
  for (const candidate of candidates) {
    const meeting = meetings.get(candidate.parcel_id);
    if (!meeting) continue;
    const onParcel = buildings.get(candidate.parcel_id) ?? { inside: 0, total: 0 };
    impacts.push({
      orgId: candidate.org_id,
      propertyId: candidate.property_id,
      parcelShareInside: meeting.within ? 1 : shareInside(meeting, candidate.area_m2),
      buildingsInside: onParcel.inside,
      buildingsTotal: onParcel.total,
      intensity: highestIntensity(meeting.parts),
    });
  }
  return impacts;
}

const BOX = ["min_lon", "min_lat", "max_lon", "max_lat"] as const;

type Boxed = { [K in (typeof BOX)[number]]: number };

/** How a row meets the event; with its geometry when that was read, as it is for every row across the edge. */
type RowMeeting = Meeting & { geometry?: Area };

/**
 * How each row (a parcel or a building) meets the event, by its id; rows apart are left out. A row whose box no
 * edge of the event comes near lies wholly inside or outside, as the middle of its box does; only the others have
 * their geometry read and related (see `EventArea.meeting`). Inside a county-wide event that is most of them.
 */
async function meetingsOf<Row extends Boxed>(
  source: GeoSource,
  table: "parcels" | "buildings",
  event: EventArea,
  rows: Array<Row & { id: number }>,
): Promise<Map<number, RowMeeting>> {
  const meetings = new Map<number, RowMeeting>();
  const nearEdge: number[] = [];
  for (const row of rows) {
    const box: BBox = [row.min_lon, row.min_lat, row.max_lon, row.max_lat];
    if (event.nearEdge(box)) {
      nearEdge.push(row.id);
      continue;
    }
    const parts = event.holding([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]);
    if (parts.length > 0) meetings.set(row.id, { within: true, parts });
  }
  for (const shape of await shapeRows(source, table, nearEdge)) {
    const geometry = decodeWkb(shape.geometry) as Area;
    const met = event.meeting(geometry);
    if (met) meetings.set(shape.id, { ...met, geometry });
  }
  return meetings;
}

/** How many buildings on each parcel the event meets, and how many there are. */
async function buildingsMeeting(
  source: GeoSource,
  event: EventArea,
  parcelIds: number[],
): Promise<Map<number, { inside: number; total: number }>> {
  const rows = await source.db
    .selectFrom("buildings")
    .select(["building_id as id", "parcel_id", ...BOX])
    .where("parcel_id", "in", parcelIds)
    .execute();
  const met = await meetingsOf(source, "buildings", event, rows);
  const counts = new Map<number, { inside: number; total: number }>();
  for (const row of rows) {
    if (row.parcel_id === null) continue;
    const count = counts.get(row.parcel_id) ?? { inside: 0, total: 0 };
    count.total += 1;
    if (met.has(row.id)) count.inside += 1;
    counts.set(row.parcel_id, count);
  }
  return counts;
}

/** The share of a parcel across the event's edge inside it, measured against the parts it meets put together. */
function shareInside(met: RowMeeting, areaM2: number): number {
  if (!met.geometry) return 1;
  const inside = intersectionArea(met.geometry, mergeParts(met.parts.map((part) => part.polygon)));
  return Math.min(1, inside / areaM2);
}

/** Properties without a parcel: by their location, or any insured building the area meets. */
async function impactsWithoutParcel(source: GeoSource, event: EventArea): Promise<Impact[]> {
  const [west, south, east, north] = event.extent;
  const rows = await source.db
    .selectFrom("properties")
    .select(["property_id", "org_id", "lon", "lat", "policy_buildings"])
    .where("parcel_id", "is", null)
    .where("lot_drawn", "=", 0)
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

/**
 * Properties whose order drew their lot: met by that boundary (the share of it inside, and the lot's buildings as
 * its record lists them), not by the imported parcel under their point. Found through the lots' spatial index;
 * few properties have one.
 */
async function drawnLotImpacts(source: GeoSource, event: EventArea): Promise<Impact[]> {
  const drawn = await source.db
    .selectFrom("properties")
    .select("property_id")
    .where(bboxMeets(source.dialect, "properties", event.extent))
    .where("lot_drawn", "=", 1)
    .execute();
  const impacts: Impact[] = [];
  for (let start = 0; start < drawn.length; start += CHUNK) {
    const ids = drawn.slice(start, start + CHUNK).map((row) => row.property_id);
    for (const { propertyId, orgId, record, input } of await recomputeInputs(source, ids)) {
      if (!input.boundary) continue;
      const met = event.meeting(input.boundary);
      if (!met) continue;
      const structures = (record?.products.structures as { structures?: PropertyBuilding[] } | undefined)?.structures;
      const footprints = (structures ?? []).map((building) => building.footprint as Area);
      const buildingsMet = footprints.map((footprint) => event.meeting(footprint));
      const share = met.within
        ? 1
        : intersectionArea(input.boundary, mergeParts(met.parts.map((part) => part.polygon))) /
          geodesicArea(input.boundary);
      impacts.push({
        orgId,
        propertyId,
        parcelShareInside: Math.min(1, share),
        buildingsInside: buildingsMet.filter((building) => building !== undefined).length,
        buildingsTotal: footprints.length,
        intensity: highestIntensity(met.parts),
      });
    }
  }
  return impacts;
}

function highestIntensity(parts: EventPart[]): number | null {
  const values = parts.flatMap((part) => (part.intensity === null ? [] : [part.intensity]));
  return values.length === 0 ? null : Math.max(...values);
}
