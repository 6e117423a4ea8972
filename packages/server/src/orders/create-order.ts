import type { OrderAccepted, OrderRequest } from "@lotline/contract";
import type { Transaction } from "kysely";
import { commitDurably } from "../db/commit-durably.js";
import type { Database } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import { enqueueJob } from "../jobs/index.js";
import { checkOrder, loadOrderRules } from "./order-rules.js";
import { writeOrders } from "./write-orders.js";

export const PROCESS_ORDER_JOB = "process_order";

/**
 * Places an order: checks what the schema cannot (one of address and location, a real calendar date, a registered
 * callback, the organization's matrix and custom fields), creates or reuses the property record (by external id),
 * and writes the order and its processing job in one transaction — so the order exists if and only if it will be
 * processed. `inTransaction` runs inside that same transaction, for the caller's own bookkeeping (idempotency).
 */
export async function createOrder(
  database: Pick<Database, "db" | "dialect" | "syncLog">,
  orgId: string,
  request: OrderRequest,
  inTransaction: (trx: Transaction<Schema>, accepted: OrderAccepted) => Promise<void> = async () => {},
): Promise<OrderAccepted> {
  const matrix = await checkOrder(() => loadOrderRules(database.db, orgId), request);

  return commitDurably(database, async (trx) => {
    const [accepted] = await writeOrders(trx, database.dialect, orgId, [
      { request, productMatrixId: matrix.product_matrix_id },
    ]);
    if (!accepted) throw new Error("writeOrders answered no order");
    await enqueueJob(trx, PROCESS_ORDER_JOB, { order_id: accepted.order_id });
    await inTransaction(trx, accepted);
    return accepted;
  });
}
