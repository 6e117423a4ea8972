import type { Transaction } from "kysely";
import type { Dialect } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import { RECOMPUTE_PROPERTY_JOB } from "../orders/recompute-property.js";
import type { ChangedArea } from "./changed-area.js";
import { propertiesInArea } from "./properties-in-area.js";

/**
 * Queues one `recompute_property` job per property with a record whose lot meets `area`, inside the caller's
 * transaction, a page of properties a statement; answers how many. Bulk work: behind the orders someone waits for.
 */
export async function queueRecomputation(
  source: { trx: Transaction<Schema>; dialect: Dialect },
  area: ChangedArea,
): Promise<number> {
  const { trx } = source;
  const now = Date.now();
  let queued = 0;
  for await (const page of propertiesInArea({ db: trx, dialect: source.dialect }, area)) {
    await trx
      .insertInto("jobs")
      .values(
        page.map((propertyId) => ({
          kind: RECOMPUTE_PROPERTY_JOB,
          payload: JSON.stringify({ property_id: propertyId }),
          status: "pending" as const,
          run_at: now,
          created_at: now,
          priority: 1,
        })),
      )
      .execute();
    queued += page.length;
  }
  return queued;
}
