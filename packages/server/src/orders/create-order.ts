import type { OrderAccepted, OrderRequest } from "@lotline/contract";
import type { Kysely, Transaction } from "kysely";
import type { Schema } from "../db/schema.js";
import { enqueueJob } from "../jobs/index.js";
import { newId } from "../tenancy/secrets.js";
import { checkOrder, loadOrderRules } from "./order-rules.js";

export const PROCESS_ORDER_JOB = "process_order";

/**
 * Places an order: checks what the schema cannot (one of address and location, a real calendar date, a registered
 * callback, the organization's matrix and custom fields), creates or reuses the property record (by external id),
 * and writes the order and its processing job in one transaction — so the order exists if and only if it will be
 * processed. `inTransaction` runs inside that same transaction, for the caller's own bookkeeping (idempotency).
 */
export async function createOrder(
  db: Kysely<Schema>,
  orgId: string,
  request: OrderRequest,
  inTransaction: (trx: Transaction<Schema>, accepted: OrderAccepted) => Promise<void> = async () => {},
): Promise<OrderAccepted> {
  const matrix = await checkOrder(() => loadOrderRules(db, orgId), request);

  return db.transaction().execute(async (trx) => {
    const accepted = await writeOrder(trx, orgId, request, matrix.product_matrix_id);
    await enqueueJob(trx, PROCESS_ORDER_JOB, { order_id: accepted.order_id });
    await inTransaction(trx, accepted);
    return accepted;
  });
}

/**
 * Writes a checked order and its property record in the caller's transaction, without its job: single orders
 * enqueue it at once, a batch enqueues all of its orders' jobs when its intake commits.
 */
export async function writeOrder(
  trx: Transaction<Schema>,
  orgId: string,
  request: OrderRequest,
  productMatrixId: string,
  { batchId = null, now = Date.now() }: { batchId?: string | null; now?: number } = {},
): Promise<OrderAccepted> {
  const propertyId = await upsertProperty(trx, orgId, request, now);
  const accepted: OrderAccepted = { order_id: newId("ord"), property_id: propertyId, status: "processing" };
  await trx
    .insertInto("orders")
    .values({
      order_id: accepted.order_id,
      org_id: orgId,
      property_id: propertyId,
      product_matrix_id: productMatrixId,
      status: "processing",
      request: JSON.stringify(request),
      callback_url: request.callback_url ?? null,
      created_at: now,
      batch_id: batchId,
    })
    .execute();
  return accepted;
}

/** The organization's record for this external id, updated with the order's policy fields; else a new one. */
async function upsertProperty(
  trx: Transaction<Schema>,
  orgId: string,
  request: OrderRequest,
  now: number,
): Promise<number> {
  const policy = {
    ...(request.external_id === undefined ? {} : { external_id: request.external_id }),
    ...(request.secondary_external_id === undefined ? {} : { secondary_external_id: request.secondary_external_id }),
    ...(request.insured_name === undefined ? {} : { insured_name: request.insured_name }),
    ...(request.renewal_date === undefined ? {} : { renewal_date: request.renewal_date }),
    ...(request.premium_amount === undefined ? {} : { premium_amount: request.premium_amount }),
    ...(request.custom_fields === undefined ? {} : { custom_fields: JSON.stringify(request.custom_fields) }),
  };
  if (request.external_id !== undefined) {
    const existing = await trx
      .selectFrom("properties")
      .select("property_id")
      .where("org_id", "=", orgId)
      .where("external_id", "=", request.external_id)
      .orderBy("property_id")
      .executeTakeFirst();
    if (existing) {
      await trx
        .updateTable("properties")
        .set({ ...policy, updated_at: now })
        .where("property_id", "=", existing.property_id)
        .execute();
      return existing.property_id;
    }
  }
  const created = await trx
    .insertInto("properties")
    .values({ org_id: orgId, ...policy, created_at: now, updated_at: now })
    .returning("property_id")
    .executeTakeFirstOrThrow();
  return created.property_id;
}
