import {
  DATABASE_ID_MAX,
  type OrderStatus,
  type PolicyBuilding,
  type PropertyBuilding,
  type PropertyRecord,
  type PropertyRecordList,
} from "@lotline/contract";
import type { Kysely, Selectable } from "kysely";
import type { PropertyTable, Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { eventsMeetingProperty } from "../events/event-queries.js";
import { visibleOrder } from "./visible-orders.js";

/**
 * The property record of DESIGN.md §6 (the contract's `PropertyRecord`): where the property is, its parcel and
 * buildings, the computed products (`data`) and the layers' findings (`third_party`), the policy fields given with
 * its orders, the insured buildings chosen for the policy, its orders, and the catastrophe events that met it.
 */
export type { PropertyRecord };

/** What processing an order stores on the property: the products it computed, by name. */
export interface StoredRecord {
  products: Record<string, unknown>;
}

export async function getPropertyRecord(
  db: Kysely<Schema>,
  orgId: string,
  propertyId: number,
): Promise<PropertyRecord> {
  const row = await db
    .selectFrom("properties")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("property_id", "=", propertyId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError("property_not_found", `no property ${propertyId}`);
  const orders = await db
    .selectFrom("orders")
    .select(["order_id", "status", "reason", "created_at", "completed_at"])
    .where("property_id", "=", propertyId)
    .where(visibleOrder)
    .orderBy("created_at", "desc")
    .orderBy("order_id", "desc")
    .execute();
  return { ...present(row, orders), events: await eventsMeetingProperty(db, orgId, propertyId) };
}

/** The organization's properties with this external id, newest first, a page at a time. */
export async function findPropertiesByExternalId(
  db: Kysely<Schema>,
  orgId: string,
  externalId: string,
  limit: number,
  cursor?: string,
): Promise<PropertyRecordList> {
  let query = db
    .selectFrom("properties")
    .select("property_id")
    .where("org_id", "=", orgId)
    .where("external_id", "=", externalId);
  if (cursor !== undefined) query = query.where("property_id", "<", decodeCursor(cursor));
  const ids = await query
    .orderBy("property_id", "desc")
    .limit(limit + 1)
    .execute();
  const page = ids.slice(0, limit);
  const data = await Promise.all(page.map(({ property_id }) => getPropertyRecord(db, orgId, property_id)));
  const last = page.at(-1);
  return {
    data,
    next_cursor: ids.length > limit && last ? Buffer.from(String(last.property_id)).toString("base64url") : null,
  };
}

function present(
  row: Selectable<PropertyTable>,
  orders: Array<{
    order_id: string;
    status: OrderStatus;
    reason: string | null;
    created_at: number;
    completed_at: number | null;
  }>,
): Omit<PropertyRecord, "events"> {
  const products = (row.record ? (JSON.parse(row.record) as StoredRecord).products : {}) as Record<string, unknown>;
  const structures = products.structures as { structures?: PropertyBuilding[] } | undefined;
  return {
    property_id: row.property_id,
    address: row.address,
    location: row.lat === null || row.lon === null ? null : { lat: row.lat, lon: row.lon },
    parcel: products.parcel ?? null,
    buildings: structures?.structures ?? [],
    data: products,
    third_party: products.third_party ?? null,
    policy: {
      external_id: row.external_id,
      secondary_external_id: row.secondary_external_id,
      insured_name: row.insured_name,
      renewal_date: row.renewal_date,
      premium_amount: row.premium_amount,
      custom_fields: JSON.parse(row.custom_fields),
    },
    policy_buildings: JSON.parse(row.policy_buildings) as PolicyBuilding[],
    orders: orders.map((order) => ({
      order_id: order.order_id,
      status: order.status,
      ...(order.reason === null ? {} : { reason: order.reason }),
      created_at: new Date(order.created_at).toISOString(),
      ...(order.completed_at === null ? {} : { completed_at: new Date(order.completed_at).toISOString() }),
    })),
    version: row.version,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const id = /^[0-9]{1,10}$/.test(text) ? Number(text) : Number.NaN;
  // Beyond the database's integer range, a property id is no cursor this API wrote (and PostgreSQL would refuse it).
  if (!(id >= 1 && id <= DATABASE_ID_MAX))
    throw new InvalidInputError("invalid_cursor", "the cursor is not one this API returned");
  return id;
}
