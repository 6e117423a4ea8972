import { basename } from "node:path";
import type { EventImpactedData, Peril } from "@lotline/contract";
import type { Transaction } from "kysely";
import { isCalendarDate } from "../calendar-date.js";
import type { Database } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import { InvalidInputError } from "../errors.js";
import { validateArea } from "../geo/geometry/index.js";
import { DEFAULT_IMPORT_POLICY, type ImportPolicy, refusalOf } from "../geo/import/import-policy.js";
import { ImportRefusedError } from "../geo/import/import-refused.js";
import { count, emptySummary, type ImportSummary } from "../geo/import/import-summary.js";
import { type ReadOptions, readSource } from "../geo/readers/index.js";
import { encodeGeometry } from "../geo/store/geometry-codec.js";
import { bboxColumns } from "../geo/store/spatial-filter.js";
import type { Area } from "../geo/types.js";
import { MonitoringCallbacks } from "../monitoring/monitoring-callbacks.js";
import { newId } from "../tenancy/secrets.js";
import { recordWebhookEvent } from "../webhooks/webhook-events.js";
import { EventArea } from "./event-area.js";
import type { EventPart } from "./event-parts.js";
import { findImpacts, type Impact } from "./find-impacts.js";
import { SearchOnThreads, type SearchThreads } from "./search-on-threads.js";
import { writeImpacts } from "./write-impacts.js";

export interface ImportEventOptions {
  file: string;
  name: string;
  peril: Peril;
  /** YYYY-MM-DD. */
  date?: string;
  /** The feature property holding each polygon's intensity (a wind speed, a water depth, a hail size). */
  intensityField?: string;
  read?: ReadOptions;
  policy?: ImportPolicy;
  /** Search the portfolio on worker threads reading the same database (`SearchOnThreads`); else on this one. */
  searchThreads?: SearchThreads;
}

export interface ImportedEvent {
  eventId: string;
  summary: ImportSummary;
  /** Properties met, of all organizations. */
  impactedProperties: number;
  /** Organizations with impacted properties, each sent one `event.impacted` webhook when it monitors. */
  organizations: number;
}

/** Event area parts written a statement. */
const PARTS_PER_STATEMENT = 200;

/**
 * `lotline import event`: reads the event's area (polygons and multipolygons, in any format `lotline import`
 * reads), finds every organization's properties it meets, and tells each organization with impacted properties
 * by one `event.impacted` webhook to its monitoring callback — all in one transaction, so an event is either
 * there whole, its impacts found and its notices queued, or not at all. Polygons are cut into parts of a few
 * hundred positions, so a parcel is tested against the few parts near it, not a county's whole outline.
 */
export async function importEvent(database: Database, options: ImportEventOptions): Promise<ImportedEvent> {
  if (options.date !== undefined && !isCalendarDate(options.date)) {
    throw new InvalidInputError("invalid_date", `--date must be a day as YYYY-MM-DD; got "${options.date}"`);
  }
  // Started first, the search threads boot while the file is read.
  const threads = options.searchThreads ? new SearchOnThreads(options.searchThreads) : undefined;
  try {
    return await readAndSearch(database, options, threads);
  } finally {
    await threads?.stop();
  }
}

async function readAndSearch(
  database: Database,
  options: ImportEventOptions,
  threads: SearchOnThreads | undefined,
): Promise<ImportedEvent> {
  const summary = emptySummary("event", options.name);
  const areas = await readAreas(options, summary);
  if (summary.read === 0) throw new ImportRefusedError("the file holds no polygons: an event needs an area");
  const refusal = refusalOf(summary, options.policy ?? DEFAULT_IMPORT_POLICY);
  if (refusal) throw new ImportRefusedError(refusal);
  const event = new EventArea(areas);

  const eventId = newId("evt");
  let impactedProperties = 0;
  const organizations = await database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("events")
      .values({
        event_id: eventId,
        name: options.name,
        peril: options.peril,
        date: options.date ?? null,
        source: basename(options.file),
        summary: JSON.stringify(summary),
        imported_at: Date.now(),
      })
      .execute();
    await writeParts(trx, eventId, event.parts);
    const write = async (impacts: Impact[]) => {
      impactedProperties += impacts.length;
      await writeImpacts(trx, database.dialect, eventId, impacts);
    };
    if (threads) await threads.search(areas, write);
    else await findImpacts({ db: trx, dialect: database.dialect }, event, write);
    return notifyOrganizations(trx, {
      event_id: eventId,
      name: options.name,
      peril: options.peril,
      date: options.date ?? null,
    });
  });
  // Every impact went through the log in one transaction: it is not left taking that room on disk.
  await database.shrinkLog();
  return { eventId, summary, impactedProperties, organizations };
}

/** The file's polygons, validated, with their intensities; every record counted in `summary`. */
async function readAreas(
  options: ImportEventOptions,
  summary: ImportSummary,
): Promise<Array<{ area: Area; intensity: number | null }>> {
  const areas: Array<{ area: Area; intensity: number | null }> = [];
  for await (const record of readSource(options.file, options.read)) {
    if ("error" in record) {
      count(summary, record.number, { reason: "unreadable", detail: record.error });
      continue;
    }
    const { geometry, properties } = record.feature;
    if (geometry?.type !== "Polygon" && geometry?.type !== "MultiPolygon") {
      count(summary, record.number, {
        reason: geometry ? "unsupported_geometry" : "missing_geometry",
        ...(geometry ? { detail: `${geometry.type} in an event's area of polygons` } : {}),
      });
      continue;
    }
    const intensity = intensityOf(properties ?? {}, options.intensityField);
    if (typeof intensity === "object" && intensity !== null) {
      count(summary, record.number, intensity);
      continue;
    }
    const checked = validateArea(geometry as Area);
    if (!checked.valid) {
      count(summary, record.number, { reason: `invalid_geometry:${checked.reason}`, detail: checked.detail });
      continue;
    }
    areas.push({ area: checked.geometry, intensity });
    count(summary, record.number, "imported");
  }
  return areas;
}

/** The polygon's intensity: a number, null when the field is absent or empty, a rejection when it is not a number. */
function intensityOf(
  properties: Record<string, unknown>,
  field: string | undefined,
): number | null | { reason: string; detail: string } {
  if (field === undefined) return null;
  const value = properties[field];
  if (value === undefined || value === null || value === "") return null;
  const number = typeof value === "number" ? value : Number(String(value).trim());
  return Number.isFinite(number)
    ? number
    : { reason: "invalid_intensity", detail: `${field} is ${JSON.stringify(value)}, not a number` };
}

async function writeParts(trx: Transaction<Schema>, eventId: string, parts: EventPart[]): Promise<void> {
  for (let start = 0; start < parts.length; start += PARTS_PER_STATEMENT) {
    await trx
      .insertInto("event_areas")
      .values(
        parts.slice(start, start + PARTS_PER_STATEMENT).map((part) => ({
          event_id: eventId,
          geometry: encodeGeometry(part.polygon),
          intensity: part.intensity,
          ...bboxColumns(part.box),
        })),
      )
      .execute();
  }
}

/** One `event.impacted` webhook to each monitoring organization with impacted properties; how many have some. */
async function notifyOrganizations(
  trx: Transaction<Schema>,
  event: Omit<EventImpactedData, "impacted_properties">,
): Promise<number> {
  const counts = await trx
    .selectFrom("event_impacts")
    .select(["org_id", (eb) => eb.fn.countAll<number>().as("impacted")])
    .where("event_id", "=", event.event_id)
    .groupBy("org_id")
    .execute();
  const callbacks = new MonitoringCallbacks(trx);
  for (const row of counts) {
    const url = await callbacks.of(row.org_id);
    if (url === null) continue;
    const data: EventImpactedData = { ...event, impacted_properties: Number(row.impacted) };
    await recordWebhookEvent(trx, { orgId: row.org_id, type: "event.impacted", url, data });
  }
  return counts.length;
}
