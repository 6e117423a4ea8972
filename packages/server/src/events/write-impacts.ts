import { sql, type Transaction } from "kysely";
import type { Dialect } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import type { Impact } from "./find-impacts.js";

/**
 * An event's impacts written in one statement, however many: as a JSON array of rows on SQLite, as one array per
 * column on PostgreSQL. The statement stays prepared, and a chunk of thousands of impacts costs one parameter a
 * column rather than one a value — a county's event writes hundreds of thousands.
 */
export async function writeImpacts(
  trx: Transaction<Schema>,
  dialect: Dialect,
  eventId: string,
  impacts: Impact[],
): Promise<void> {
  if (impacts.length === 0) return;
  const columns = sql`event_impacts (event_id, org_id, property_id, parcel_share_inside, buildings_inside,
    buildings_total, intensity)`;
  if (dialect === "sqlite") {
    const rows = impacts.map((impact) => [
      impact.orgId,
      impact.propertyId,
      impact.parcelShareInside,
      impact.buildingsInside,
      impact.buildingsTotal,
      impact.intensity,
    ]);
    await sql`insert into ${columns}
      select ${eventId}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5
      from json_each(${JSON.stringify(rows)})`.execute(trx);
    return;
  }
  const column = <T>(of: (impact: Impact) => T) => impacts.map(of);
  await sql`insert into ${columns}
    select ${eventId}, * from unnest(${column((impact) => impact.orgId)}::text[],
      ${column((impact) => impact.propertyId)}::integer[], ${column((impact) => impact.parcelShareInside)}::float8[],
      ${column((impact) => impact.buildingsInside)}::integer[], ${column((impact) => impact.buildingsTotal)}::integer[],
      ${column((impact) => impact.intensity)}::float8[])`.execute(trx);
}
