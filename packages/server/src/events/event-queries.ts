import type {
  CatastropheEvent,
  CatastropheEventList,
  ImpactedProperty,
  ImpactedPropertyList,
  Peril,
  PropertyEvent,
} from "@lotline/contract";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";

/**
 * The imported events, newest first, each with how many of this organization's properties it met (another
 * organization's never count), a page at a time.
 */
export async function listEvents(
  db: Kysely<Schema>,
  orgId: string,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<CatastropheEventList> {
  let query = db
    .selectFrom("events")
    .leftJoin("event_impacts", (join) =>
      join.onRef("event_impacts.event_id", "=", "events.event_id").on("event_impacts.org_id", "=", orgId),
    )
    .select([...EVENT_COLUMNS, (eb) => eb.fn.count<number>("event_impacts.property_id").as("impacted")])
    .groupBy(EVENT_COLUMNS);
  if (cursor) {
    const [importedAt, eventId] = decodeEventCursor(cursor);
    query = query.where((eb) =>
      eb.or([
        eb("events.imported_at", "<", importedAt),
        eb.and([eb("events.imported_at", "=", importedAt), eb("events.event_id", "<", eventId)]),
      ]),
    );
  }
  const rows = await query
    .orderBy("events.imported_at", "desc")
    .orderBy("events.event_id", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(
      ({ impacted, ...row }): CatastropheEvent => ({
        ...presentEvent(row),
        impacted_properties: Number(impacted),
      }),
    ),
    next_cursor: rows.length > limit && last ? encodeCursor([last.imported_at, last.event_id]) : null,
  };
}

/** The organization's properties that the event met, by property id, a page at a time. */
export async function impactedProperties(
  db: Kysely<Schema>,
  orgId: string,
  eventId: string,
  page: { limit: number; cursor?: string },
): Promise<ImpactedPropertyList> {
  await requireEvent(db, eventId);
  return impactedPage(db, orgId, eventId, page);
}

/**
 * Every impacted property of the organization, for a CSV of the whole list: the event is checked now, so that an
 * unknown one is refused before anything is sent; the rows are then read a page at a time as they are taken.
 */
export async function allImpactedProperties(
  db: Kysely<Schema>,
  orgId: string,
  eventId: string,
): Promise<AsyncGenerator<ImpactedProperty>> {
  await requireEvent(db, eventId);
  return (async function* () {
    for (let cursor: string | undefined; ; ) {
      const page = await impactedPage(db, orgId, eventId, { limit: 1000, ...(cursor ? { cursor } : {}) });
      yield* page.data;
      if (page.next_cursor === null) return;
      cursor = page.next_cursor;
    }
  })();
}

async function impactedPage(
  db: Kysely<Schema>,
  orgId: string,
  eventId: string,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<ImpactedPropertyList> {
  let query = db
    .selectFrom("event_impacts")
    .innerJoin("properties", "properties.property_id", "event_impacts.property_id")
    .select([
      "event_impacts.property_id",
      "properties.external_id",
      "properties.address",
      "event_impacts.parcel_share_inside",
      "event_impacts.buildings_inside",
      "event_impacts.buildings_total",
      "event_impacts.intensity",
    ])
    .where("event_impacts.event_id", "=", eventId)
    .where("event_impacts.org_id", "=", orgId);
  if (cursor) query = query.where("event_impacts.property_id", ">", decodePropertyCursor(cursor));
  const rows = await query
    .orderBy("event_impacts.property_id")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page satisfies ImpactedProperty[],
    next_cursor: rows.length > limit && last ? encodeCursor([last.property_id]) : null,
  };
}

/** The catastrophe events that met one of the organization's properties, newest first. */
export async function eventsMeetingProperty(
  db: Kysely<Schema>,
  orgId: string,
  propertyId: number,
): Promise<PropertyEvent[]> {
  const rows = await db
    .selectFrom("event_impacts")
    .innerJoin("events", "events.event_id", "event_impacts.event_id")
    .select([
      ...EVENT_COLUMNS,
      "event_impacts.parcel_share_inside",
      "event_impacts.buildings_inside",
      "event_impacts.buildings_total",
      "event_impacts.intensity",
    ])
    .where("event_impacts.property_id", "=", propertyId)
    .where("event_impacts.org_id", "=", orgId)
    .orderBy("events.imported_at", "desc")
    .orderBy("events.event_id", "desc")
    .execute();
  return rows.map(presentEvent);
}

const EVENT_COLUMNS = ["events.event_id", "events.name", "events.peril", "events.date", "events.imported_at"] as const;

/** An event row as the contract presents it: its peril typed, its import time as an ISO timestamp. */
function presentEvent<Row extends { peril: string; imported_at: number }>(
  row: Row,
): Omit<Row, "peril" | "imported_at"> & { peril: Peril; imported_at: string } {
  return { ...row, peril: row.peril as Peril, imported_at: new Date(row.imported_at).toISOString() };
}

async function requireEvent(db: Kysely<Schema>, eventId: string): Promise<void> {
  const event = await db.selectFrom("events").select("event_id").where("event_id", "=", eventId).executeTakeFirst();
  if (!event) throw new NotFoundError("event_not_found", `no event ${eventId}`);
}

function encodeCursor(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

function decodeEventCursor(cursor: string): [number, string] {
  const values = decodeCursor(cursor);
  const [importedAt, eventId] = values;
  // Only what the API wrote: a forged cursor must not reach the database as a value it cannot compare.
  if (
    values.length === 2 &&
    Number.isSafeInteger(importedAt) &&
    typeof eventId === "string" &&
    /^evt_\w{1,64}$/.test(eventId)
  ) {
    return [importedAt as number, eventId];
  }
  throw invalidCursor();
}

function decodePropertyCursor(cursor: string): number {
  const [propertyId, ...rest] = decodeCursor(cursor);
  if (rest.length === 0 && Number.isSafeInteger(propertyId) && (propertyId as number) >= 0) return propertyId as number;
  throw invalidCursor();
}

function decodeCursor(cursor: string): unknown[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(values)) return values;
  } catch {
    // answered below
  }
  throw invalidCursor();
}

const invalidCursor = () => new InvalidInputError("invalid_cursor", "the cursor is not one this API returned");
