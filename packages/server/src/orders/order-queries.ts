import type { Order, OrderList, OrderStatus } from "@lotline/contract";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { visibleOrder } from "./visible-orders.js";

interface OrderRow {
  order_id: string;
  property_id: number;
  status: OrderStatus;
  reason: string | null;
  product_matrix_id: string;
  external_id: string | null;
  created_at: number;
  completed_at: number | null;
}

const selectOrders = (db: Kysely<Schema>, orgId: string) =>
  db
    .selectFrom("orders")
    .innerJoin("properties", "properties.property_id", "orders.property_id")
    .select([
      "orders.order_id",
      "orders.property_id",
      "orders.status",
      "orders.reason",
      "orders.product_matrix_id",
      "properties.external_id",
      "orders.created_at",
      "orders.completed_at",
    ])
    .where("orders.org_id", "=", orgId)
    .where(visibleOrder);

/** One of the organization's orders; another organization's is not found. */
export async function getOrder(db: Kysely<Schema>, orgId: string, orderId: string): Promise<Order> {
  const row = await selectOrders(db, orgId).where("orders.order_id", "=", orderId).executeTakeFirst();
  if (!row) throw new NotFoundError("order_not_found", `no order ${orderId}`);
  return presentOrder(row);
}

export interface OrderFilter {
  status?: OrderStatus;
  externalId?: string;
  limit: number;
  cursor?: string;
}

/** The organization's orders, newest first, a page at a time; `next_cursor` fetches the next page. */
export async function listOrders(db: Kysely<Schema>, orgId: string, filter: OrderFilter): Promise<OrderList> {
  let query = selectOrders(db, orgId);
  if (filter.status) query = query.where("orders.status", "=", filter.status);
  if (filter.externalId) query = query.where("properties.external_id", "=", filter.externalId);
  if (filter.cursor) {
    const [createdAt, orderId] = decodeCursor(filter.cursor);
    query = query.where((eb) =>
      eb.or([
        eb("orders.created_at", "<", createdAt),
        eb.and([eb("orders.created_at", "=", createdAt), eb("orders.order_id", "<", orderId)]),
      ]),
    );
  }
  const rows = await query
    .orderBy("orders.created_at", "desc")
    .orderBy("orders.order_id", "desc")
    .limit(filter.limit + 1)
    .execute();
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    data: page.map(presentOrder),
    next_cursor: rows.length > filter.limit && last ? encodeCursor(last.created_at, last.order_id) : null,
  };
}

export function presentOrder(row: OrderRow): Order {
  return {
    order_id: row.order_id,
    property_id: row.property_id,
    status: row.status,
    ...(row.reason === null ? {} : { reason: row.reason }),
    product_matrix_id: row.product_matrix_id,
    ...(row.external_id === null ? {} : { external_id: row.external_id }),
    created_at: new Date(row.created_at).toISOString(),
    ...(row.completed_at === null ? {} : { completed_at: new Date(row.completed_at).toISOString() }),
  };
}

function encodeCursor(createdAt: number, orderId: string): string {
  return Buffer.from(JSON.stringify([createdAt, orderId])).toString("base64url");
}

/** An order id as `newId` makes them. */
const ID = /^[a-z]+_[a-z0-9]{1,64}$/;

function decodeCursor(cursor: string): [number, string] {
  try {
    const [createdAt, orderId] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    // Only what encodeCursor writes: a forged cursor must not reach the database as a value it cannot compare.
    if (Number.isSafeInteger(createdAt) && createdAt >= 0 && typeof orderId === "string" && ID.test(orderId)) {
      return [createdAt, orderId];
    }
  } catch {
    // answered below
  }
  throw new InvalidInputError("invalid_cursor", "the cursor is not one this API returned");
}
