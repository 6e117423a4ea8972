import type { PolicyBuilding, PropertyBuilding } from "@lotline/contract";
import { sql } from "kysely";
import { recomputeInputs } from "../changes/recompute-inputs.js";
import { geodesicArea } from "../geo/geometry/geodesic-area.js";
import { intersectionArea } from "../geo/geometry/intersection-area.js";
import { mergeParts } from "../geo/geometry/subdivide.js";
import { boxesInTiles, type IndexedBox } from "../geo/store/boxes-in-tiles.js";
import { decodeGeometry } from "../geo/store/geometry-codec.js";
import { geometryRows } from "../geo/store/read-spatial-rows.js";
import { amongIds, bboxMeets, type GeoSource } from "../geo/store/spatial-filter.js";
import type { Area, BBox, LonLat } from "../geo/types.js";
import type { EventArea, Meeting } from "./event-area.js";
import type { EventPart } from "./event-parts.js";

/** Parcels whose properties, boundaries and buildings are read a statement. */
const CHUNK = 2000;
/** The side of a tile of the event's extent whose parcels are read at once, degrees: a few thousand parcels. */
const TILE = 0.05;

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
 * the user drew in its order when there is one, else by its location or one of its insured buildings. The
 * parcels in the event's extent come from their spatial index with their boxes, a tile at a time; their
 * properties and buildings are then read and tested a chunk at a time, geometry only across the event's edge,
 * so memory stays bounded whatever the portfolio. `onImpacts` receives each chunk's impacts.
 */
export async function findImpacts(
  source: GeoSource,
  event: EventArea,
  onImpacts: (impacts: Impact[]) => Promise<void>,
  share: SearchShare = WHOLE_SEARCH,
): Promise<void> {
  const skip = (tile: BBox, ordinal: number) => ordinal % share.of !== share.index || event.boxSide(tile) === undefined;
  for await (const parcels of boxesInTiles(source, "parcels", event.extent, TILE, skip)) {
    for (let start = 0; start < parcels.length; start += CHUNK) {
      const impacts = await parcelImpacts(source, event, parcels.slice(start, start + CHUNK));
      if (impacts.length > 0) await onImpacts(impacts);
    }
  }
  if (share.index !== 0) return;
  await onImpacts(await impactsWithoutParcel(source, event));
  await onImpacts(await drawnLotImpacts(source, event));
}

/**
 * The part of a search one of `of` searchers makes: the tiles of the event's extent whose ordinal leaves
 * `index` when divided by `of` (so that each has some of every part of the event), and, for the first, the
 * properties found other than by their parcel.
 */
export interface SearchShare {
  index: number;
  of: number;
}

const WHOLE_SEARCH: SearchShare = { index: 0, of: 1 };

async function parcelImpacts(source: GeoSource, event: EventArea, parcels: IndexedBox[]): Promise<Impact[]> {
  const sides = sidesOf(event, parcels);
  if (sides.size === 0) return [];
  const properties = await source.db
    .selectFrom("properties")
    .select(["property_id", "org_id", "parcel_id"])
    .where(amongIds(source.dialect, "parcel_id", [...sides.keys()]))
    .where("lot_drawn", "=", 0)
    .execute();
  // A parcel held by several organizations' properties is tested once.
  const held = [...new Set(properties.map((property) => property.parcel_id as number))];
  const meetings = await meetingsOf(source, "parcels", event, sides, held);
  if (meetings.size === 0) return [];
  const buildings = await buildingsMeeting(source, event, [...meetings.keys()]);
  const impacts: Impact[] = [];
  for (const property of properties) {
    const parcelId = property.parcel_id as number;
    const meeting = meetings.get(parcelId);
    if (!meeting) continue;
    const onParcel = buildings.get(parcelId) ?? { inside: 0, total: 0 };
    impacts.push({
      orgId: property.org_id,
      propertyId: property.property_id,
      parcelShareInside: meeting.within ? 1 : shareInside(meeting),
      buildingsInside: onParcel.inside,
      buildingsTotal: onParcel.total,
      intensity: highestIntensity(meeting.parts),
    });
  }
  return impacts;
}

/** How each row meets the event as far as its box tells (`EventArea.boxSide`), by id; rows apart left out. */
function sidesOf(event: EventArea, rows: IndexedBox[]): Map<number, Meeting | "across"> {
  const sides = new Map<number, Meeting | "across">();
  for (const { id, box } of rows) {
    const side = event.boxSide(box);
    if (side !== undefined) sides.set(id, side);
  }
  return sides;
}

/** How a row meets the event; with its geometry when that was read, as it is for every row across the edge. */
type RowMeeting = Meeting & { geometry?: Area };

/**
 * How each of the rows `ids` (parcels or buildings) meets the event, by id, given their sides; rows apart are
 * left out. Only the rows across the event's edge have their geometry read and related (`EventArea.meeting`).
 */
async function meetingsOf(
  source: GeoSource,
  table: "parcels" | "buildings",
  event: EventArea,
  sides: Map<number, Meeting | "across">,
  ids: number[],
): Promise<Map<number, RowMeeting>> {
  const meetings = new Map<number, RowMeeting>();
  const across: number[] = [];
  for (const id of ids) {
    const side = sides.get(id);
    if (side === "across") across.push(id);
    else if (side !== undefined) meetings.set(id, side);
  }
  for (const shape of await geometryRows(source, table, across)) {
    const geometry = decodeGeometry(shape.geometry) as Area;
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
    .select(["building_id", "parcel_id", "min_lon", "min_lat", "max_lon", "max_lat"])
    .where(amongIds(source.dialect, "parcel_id", parcelIds))
    .execute();
  const sides = sidesOf(
    event,
    rows.map((row) => ({ id: row.building_id, box: [row.min_lon, row.min_lat, row.max_lon, row.max_lat] })),
  );
  const met = await meetingsOf(source, "buildings", event, sides, [...sides.keys()]);
  const counts = new Map<number, { inside: number; total: number }>();
  for (const row of rows) {
    if (row.parcel_id === null) continue;
    const count = counts.get(row.parcel_id) ?? { inside: 0, total: 0 };
    count.total += 1;
    if (met.has(row.building_id)) count.inside += 1;
    counts.set(row.parcel_id, count);
  }
  return counts;
}

/**
 * The share of a parcel across the event's edge inside it, by geodesic area: the parcel against the parts it meets
 * put together.
 */
function shareInside(met: RowMeeting): number {
  if (!met.geometry) return 1;
  const inside = intersectionArea(met.geometry, mergeParts(met.parts.map((part) => part.polygon)));
  return Math.min(1, inside / geodesicArea(met.geometry));
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
