import type { OrderAccepted, OrderRequest } from "@lotline/contract";
import { sql, type Transaction, type Updateable } from "kysely";
import type { Dialect } from "../db/database.js";
import type { PropertyTable, Schema } from "../db/schema.js";
import { newId } from "../tenancy/secrets.js";

/** A checked order to write: its request and the product matrix it resolved to. */
export interface CheckedOrder {
  request: OrderRequest;
  productMatrixId: string;
}

/** Rows per multi-row statement: far below either database's limit on bound parameters. */
const ROWS_PER_STATEMENT = 500;

type Policy = Updateable<PropertyTable>;

/**
 * A new record's policy fields before an order's own: every row of a multi-row insert names the same columns
 * (SQLite has no `default` in a values list), so the columns' defaults are spelled out.
 */
const NEW_RECORD = {
  external_id: null,
  secondary_external_id: null,
  insured_name: null,
  renewal_date: null,
  premium_amount: null,
  custom_fields: "{}",
} satisfies Policy;

/**
 * Writes checked orders and their property records in the caller's transaction, without their jobs: single
 * orders enqueue theirs at once, a batch enqueues all of its orders' jobs when its intake commits.
 *
 * An order with an external id takes the organization's record for it (the oldest, if several), updated with the
 * order's policy fields; otherwise a new record. The same as writing the orders one by one, in a few statements
 * whatever their number — one to find the records, one per record updated, a multi-row insert of new records
 * (`insertRecords`) and of the orders — which is what lets a batch's intake keep pace on PostgreSQL, where every
 * statement is a round trip.
 */
export async function writeOrders(
  trx: Transaction<Schema>,
  dialect: Dialect,
  orgId: string,
  orders: readonly CheckedOrder[],
  { batchId = null, now = Date.now() }: { batchId?: string | null; now?: number } = {},
): Promise<OrderAccepted[]> {
  const existing = await existingRecords(trx, orgId, orders);
  const updates = new Map<number, Policy>();
  const created = new Map<string, Policy>();
  const fresh: Policy[] = [];
  /** Per order: the property id, or the new record it waits for. */
  const targets: Array<number | Policy> = [];
  for (const { request } of orders) {
    const policy = policyOf(request);
    const externalId = request.external_id;
    const found = externalId === undefined ? undefined : existing.get(externalId);
    if (found !== undefined) {
      updates.set(found, { ...updates.get(found), ...policy });
      targets.push(found);
      continue;
    }
    const shared = externalId === undefined ? undefined : created.get(externalId);
    if (shared) {
      Object.assign(shared, policy);
      targets.push(shared);
      continue;
    }
    const record: Policy = { ...policy };
    if (externalId !== undefined) created.set(externalId, record);
    fresh.push(record);
    targets.push(record);
  }

  for (const [propertyId, policy] of updates) {
    await trx
      .updateTable("properties")
      .set({ ...policy, updated_at: now })
      .where("property_id", "=", propertyId)
      .execute();
  }
  const idOf = await insertRecords(trx, dialect, orgId, fresh, now);

  const accepted = orders.map(
    (_, i): OrderAccepted => ({
      order_id: newId("ord"),
      property_id: propertyIdOf(targets[i], idOf),
      status: "processing",
    }),
  );
  for (let start = 0; start < orders.length; start += ROWS_PER_STATEMENT) {
    await trx
      .insertInto("orders")
      .values(
        orders.slice(start, start + ROWS_PER_STATEMENT).map(({ request, productMatrixId }, offset) => {
          const { order_id, property_id } = accepted[start + offset] as OrderAccepted;
          return {
            order_id,
            org_id: orgId,
            property_id,
            product_matrix_id: productMatrixId,
            status: "processing" as const,
            request: JSON.stringify(request),
            callback_url: request.callback_url ?? null,
            created_at: now,
            batch_id: batchId,
          };
        }),
      )
      .execute();
  }
  return accepted;
}

/**
 * Inserts new property records and answers their ids. One record draws its id by its own insert (one statement,
 * where drawing first takes another round trip); several have theirs drawn first, so that each order knows its own.
 */
async function insertRecords(
  trx: Transaction<Schema>,
  dialect: Dialect,
  orgId: string,
  fresh: readonly Policy[],
  now: number,
): Promise<Map<Policy, number>> {
  const row = (record: Policy) => ({ ...NEW_RECORD, ...record, org_id: orgId, created_at: now, updated_at: now });
  const [only] = fresh;
  if (fresh.length === 1 && only) {
    const { property_id } = await trx
      .insertInto("properties")
      .values(row(only))
      .returning("property_id")
      .executeTakeFirstOrThrow();
    return new Map([[only, property_id]]);
  }
  const ids = await drawPropertyIds(trx, dialect, fresh.length);
  const idOf = new Map(fresh.map((record, i) => [record, ids[i] ?? 0]));
  for (let start = 0; start < fresh.length; start += ROWS_PER_STATEMENT) {
    await trx
      .insertInto("properties")
      .values(
        fresh
          .slice(start, start + ROWS_PER_STATEMENT)
          .map((record) => ({ ...row(record), property_id: idOf.get(record) ?? 0 })),
      )
      .execute();
  }
  return idOf;
}

function propertyIdOf(target: number | Policy | undefined, idOf: Map<Policy, number>): number {
  if (typeof target === "number") return target;
  return target === undefined ? 0 : (idOf.get(target) ?? 0);
}

/** The policy fields an order sets on its property record; fields it leaves out stay as they are. */
function policyOf(request: OrderRequest): Policy {
  return {
    ...(request.external_id === undefined ? {} : { external_id: request.external_id }),
    ...(request.secondary_external_id === undefined ? {} : { secondary_external_id: request.secondary_external_id }),
    ...(request.insured_name === undefined ? {} : { insured_name: request.insured_name }),
    ...(request.renewal_date === undefined ? {} : { renewal_date: request.renewal_date }),
    ...(request.premium_amount === undefined ? {} : { premium_amount: request.premium_amount }),
    ...(request.custom_fields === undefined ? {} : { custom_fields: JSON.stringify(request.custom_fields) }),
  };
}

/** The organization's oldest record for each external id the orders name. */
async function existingRecords(
  trx: Transaction<Schema>,
  orgId: string,
  orders: readonly CheckedOrder[],
): Promise<Map<string, number>> {
  const externalIds = [...new Set(orders.flatMap(({ request }) => request.external_id ?? []))];
  const found = new Map<string, number>();
  for (let start = 0; start < externalIds.length; start += ROWS_PER_STATEMENT) {
    const rows = await trx
      .selectFrom("properties")
      .select(["property_id", "external_id"])
      .where("org_id", "=", orgId)
      .where("external_id", "in", externalIds.slice(start, start + ROWS_PER_STATEMENT))
      .orderBy("property_id")
      .execute();
    for (const row of rows) {
      if (row.external_id !== null && !found.has(row.external_id)) found.set(row.external_id, row.property_id);
    }
  }
  return found;
}

/**
 * `count` new property ids, drawn before the insert so that each order knows its record: from the identity's
 * sequence on PostgreSQL; on SQLite, past the highest id ever given (`sqlite_sequence`, which `autoincrement`
 * keeps), safe because the transaction holds SQLite's one write lock.
 */
async function drawPropertyIds(trx: Transaction<Schema>, dialect: Dialect, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (dialect === "postgres") {
    const { rows } = await sql<{
      id: string | number;
    }>`select nextval(pg_get_serial_sequence('properties', 'property_id'))
      as id from generate_series(1, ${count})`.execute(trx);
    return rows.map((row) => Number(row.id));
  }
  // Take the write lock before reading the sequence: a deferred transaction that has only read so far holds none.
  await trx.updateTable("properties").set({ updated_at: 0 }).where(sql<boolean>`0`).execute();
  const { rows } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'properties'`.execute(trx);
  const last = Number(rows[0]?.seq ?? 0);
  return Array.from({ length: count }, (_, i) => last + 1 + i);
}
