import type { OrderRequest, ProductName } from "@lotline/contract";
import type { ExpressionBuilder, Transaction } from "kysely";
import { settleBatchOrder } from "../batches/settle-batch-order.js";
import { commitLazily } from "../db/commit-lazily.js";
import type { Database } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import { locateAddress } from "../geo/locate/locate-address.js";
import { parcelAt } from "../geo/queries/parcel-at.js";
import type { Area, LonLat } from "../geo/types.js";
import type { JobHandler } from "../jobs/index.js";
import { ADDRESS_NOT_FOUND, NO_PARCEL_AT_LOCATION } from "../products/failure-reasons.js";
import { checkBoundary, computeProducts } from "../products/index.js";
import { readDatasetsAhead } from "../products/provenance.js";
import { withSharedReads } from "../products/shared-reads.js";
import { type LotBox, lotBoxOf } from "../versions/lot-box.js";
import { storeVersion } from "../versions/store-version.js";
import { recordWebhookEvent } from "../webhooks/webhook-events.js";
import type { StoredRecord } from "./property-records.js";

/** An address candidate must score at least this to stand for the order's address. */
export const ADDRESS_MATCH_THRESHOLD = 0.9;

type Outcome =
  | {
      status: "complete";
      point: LonLat;
      address: string | null;
      parcelId: number | null;
      record: StoredRecord;
      lot: LotBox;
    }
  | { status: "failed"; reason: string; located?: { point: LonLat; address: string | null } };

/**
 * The `process_order` job: locates the property, finds its parcel (or takes the drawn boundary), computes the
 * products of the order's matrix, and in one transaction stores them on the property, settles the order and
 * queues its webhook. Runs at least once: an order already settled (a run after a crash) is left alone.
 */
export function processOrderJob(database: Database): JobHandler {
  return async (payload) => {
    const { order_id: orderId } = payload as { order_id: string };
    const order = await orderWithProducts(database, orderId);
    if (order?.status !== "processing") return;
    const request = JSON.parse(order.request) as OrderRequest;
    const outcome = await compute(database, request, order.products);

    // Lazily: undone by a power failure, the order is only processed again (the job runs at least once).
    await commitLazily(database, async (trx) => {
      const now = Date.now();
      // Lock the property row first: two orders of one property settling at once then take turns, and the
      // second sees the first's outcome (READ COMMITTED gives each later statement a fresh snapshot).
      const property = await trx
        .updateTable("properties")
        .set((eb) => ({ updated_at: eb.ref("updated_at") }))
        .where("property_id", "=", order.property_id)
        .returning("external_id")
        .executeTakeFirst();
      const settled = await trx
        .updateTable("orders")
        .set({
          status: outcome.status,
          reason: outcome.status === "failed" ? outcome.reason : null,
          completed_at: now,
        })
        .where("order_id", "=", orderId)
        .where("status", "=", "processing")
        .returning((eb) => eb.exists(newerCompleteOrder(eb, order)).as("superseded"))
        .executeTakeFirst();
      if (!settled) return;
      if (outcome.status === "complete") {
        // Orders run side by side, and the record must show the latest order placed, not the last to finish.
        if (!settled.superseded) await storeOnProperty(trx, order, outcome, now);
      } else if (outcome.located) await storeLocation(trx, order.property_id, outcome.located, now);
      if (order.callback_url) {
        await recordWebhookEvent(trx, {
          orgId: order.org_id,
          type: outcome.status === "complete" ? "order.complete" : "order.failed",
          url: order.callback_url,
          data: {
            order_id: orderId,
            property_id: order.property_id,
            status: outcome.status,
            ...(outcome.status === "failed" ? { reason: outcome.reason } : {}),
            ...(property?.external_id ? { external_id: property.external_id } : {}),
          },
        });
      }
      if (order.batch_id) await settleBatchOrder(trx, order.batch_id, outcome.status);
    });
  };
}

async function compute(database: Database, request: OrderRequest, products: ProductName[]): Promise<Outcome> {
  let boundary: Area | undefined;
  if (request.parcel_boundary) {
    const checked = checkBoundary(request.parcel_boundary);
    if ("reason" in checked) return { status: "failed", reason: checked.reason };
    boundary = checked;
  }
  // Every product's provenance reads the dataset catalog: read while the property and its parcel are found.
  const source = withSharedReads(database);
  if (products.length > 0) readDatasetsAhead(source);
  let point: LonLat;
  let address: string | null = request.address ?? null;
  if (request.location) {
    point = [request.location.lon, request.location.lat];
  } else {
    const [best] = await locateAddress(database, request.address ?? "", 1);
    if (!best || best.score < ADDRESS_MATCH_THRESHOLD) return { status: "failed", reason: ADDRESS_NOT_FOUND };
    point = [best.location.lon, best.location.lat];
    address = best.address;
  }
  const parcel = await parcelAt(database, point);
  if (!parcel && !boundary) return { status: "failed", reason: NO_PARCEL_AT_LOCATION, located: { point, address } };
  const input = { point, parcel, ...(boundary ? { boundary } : {}) };
  const results = await computeProducts(source, products, input);
  return {
    status: "complete",
    point,
    address,
    parcelId: parcel?.parcelId ?? null,
    record: { products: results },
    lot: lotBoxOf(input),
  };
}

/** The order with its matrix's products (none when the matrix is gone), read in one statement. */
async function orderWithProducts(database: Database, orderId: string) {
  const row = await database.db
    .selectFrom("orders")
    .leftJoin("product_matrices", "product_matrices.product_matrix_id", "orders.product_matrix_id")
    .selectAll("orders")
    .select("product_matrices.products")
    .where("orders.order_id", "=", orderId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { products, ...order } = row;
  return { ...order, products: products === null ? [] : (JSON.parse(products) as ProductName[]) };
}

/**
 * A complete order of the same property placed after `order` (by time, then id): the statement settling `order`
 * asks for it once the property row is locked, so that it sees any such order that settled meanwhile.
 */
function newerCompleteOrder(
  eb: ExpressionBuilder<Schema, "orders">,
  order: { order_id: string; property_id: number; created_at: number },
) {
  return eb
    .selectFrom("orders as newer")
    .select("newer.order_id")
    .where("newer.property_id", "=", order.property_id)
    .where("newer.status", "=", "complete")
    .where("newer.order_id", "<>", order.order_id)
    .where((newer) =>
      newer.or([
        newer("newer.created_at", ">", order.created_at),
        newer.and([newer("newer.created_at", "=", order.created_at), newer("newer.order_id", ">", order.order_id)]),
      ]),
    );
}

/** Stores the products on the property as its next version, with where the order found it. */
async function storeOnProperty(
  trx: Transaction<Schema>,
  order: { property_id: number },
  outcome: Extract<Outcome, { status: "complete" }>,
  now: number,
): Promise<void> {
  await storeVersion(trx, {
    propertyId: order.property_id,
    record: outcome.record,
    lot: outcome.lot,
    cause: "order",
    now,
    place: { address: outcome.address, lon: outcome.point[0], lat: outcome.point[1], parcel_id: outcome.parcelId },
  });
}

/**
 * Where a property is, found though its order failed for want of a parcel there, kept unless it has a place
 * already: an insurer's portfolio holds it all the same, and a catastrophe meeting that point must find it.
 */
async function storeLocation(
  trx: Transaction<Schema>,
  propertyId: number,
  { point, address }: { point: LonLat; address: string | null },
  now: number,
): Promise<void> {
  await trx
    .updateTable("properties")
    .set({ address, lon: point[0], lat: point[1], updated_at: now })
    .where("property_id", "=", propertyId)
    .where("lat", "is", null)
    .execute();
}
