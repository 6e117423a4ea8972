import { applyRecomputed } from "../changes/apply-recomputed.js";
import { recomputeInputs } from "../changes/recompute-inputs.js";
import type { Database } from "../db/database.js";
import type { JobHandler } from "../jobs/index.js";
import { MonitoringCallbacks } from "../monitoring/monitoring-callbacks.js";
import { PRODUCTS } from "../products/index.js";
import { lotBoxOf } from "../versions/lot-box.js";
import type { StoredRecord } from "./property-records.js";

/** The job that computes a property's record again after the data under it changed. */
export const RECOMPUTE_PROPERTY_JOB = "recompute_property";

/**
 * The `recompute_property` job: computes the products of the property's latest completed order again, at the
 * place that order located, from the data there now (a dataset removed, parcels or buildings imported). A product
 * that can no longer be served (its parcel is gone) is left out rather than kept from data that no longer exists.
 * If a figure changed, the record becomes the property's next version and a monitoring organization hears of it
 * (`property.changed`). Idempotent: computed again from the same data, a record has no changes.
 */
export function recomputePropertyJob(database: Database): JobHandler {
  return async (payload) => {
    const { property_id: propertyId } = payload as { property_id: number };
    const [found] = await recomputeInputs(database, [propertyId]);
    if (!found) return;
    const results = await Promise.allSettled(found.products.map((name) => PRODUCTS[name](database, found.input)));
    const products = Object.fromEntries(
      found.products.flatMap((name, index) => {
        const result = results[index];
        return result?.status === "fulfilled" ? [[name, result.value]] : [];
      }),
    );
    await database.db.transaction().execute(async (trx) => {
      // The record as it is now, under the row's lock: an order may have completed meanwhile.
      const current = await trx
        .updateTable("properties")
        .set({ parcel_id: found.input.parcel?.parcelId ?? null })
        .where("property_id", "=", propertyId)
        .returning("record")
        .executeTakeFirst();
      if (!current) return;
      await applyRecomputed(
        trx,
        new MonitoringCallbacks(trx),
        {
          ...found,
          before: current.record === null ? null : (JSON.parse(current.record) as StoredRecord),
          after: { products },
          lot: lotBoxOf(found.input),
        },
        Date.now(),
      );
    });
  };
}
