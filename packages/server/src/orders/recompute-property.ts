import type { OrderRequest, ProductName } from "@lotline/contract";
import type { Database } from "../db/database.js";
import { parcelAt } from "../geo/queries/parcel-at.js";
import type { Area, LonLat } from "../geo/types.js";
import type { JobHandler } from "../jobs/index.js";
import { checkBoundary, PRODUCTS } from "../products/index.js";
import type { StoredRecord } from "./property-records.js";

/** The job that computes a property's record again after the data under it changed (a dataset removed). */
export const RECOMPUTE_PROPERTY_JOB = "recompute_property";

/**
 * The `recompute_property` job: computes the products of the property's latest completed order again, at the
 * place that order located, from the data there now. A product that can no longer be served (its parcel is gone)
 * is left out rather than kept from data that no longer exists. Idempotent: it only rewrites the record.
 */
export function recomputePropertyJob(database: Database): JobHandler {
  return async (payload) => {
    const { property_id: propertyId } = payload as { property_id: number };
    const property = await database.db
      .selectFrom("properties")
      .select(["lon", "lat"])
      .where("property_id", "=", propertyId)
      .executeTakeFirst();
    const order = await database.db
      .selectFrom("orders")
      .innerJoin("product_matrices", "product_matrices.product_matrix_id", "orders.product_matrix_id")
      .select(["orders.request", "product_matrices.products"])
      .where("orders.property_id", "=", propertyId)
      .where("orders.status", "=", "complete")
      .orderBy("orders.created_at", "desc")
      .orderBy("orders.order_id", "desc")
      .executeTakeFirst();
    if (!property || property.lon === null || property.lat === null || !order) return;

    const point: LonLat = [property.lon, property.lat];
    const drawn = (JSON.parse(order.request) as OrderRequest).parcel_boundary;
    const checked = drawn ? checkBoundary(drawn) : undefined;
    const boundary = checked && !("reason" in checked) ? (checked as Area) : undefined;
    const parcel = await parcelAt(database, point);
    const names = JSON.parse(order.products) as ProductName[];
    const results = await Promise.allSettled(
      names.map((name) => PRODUCTS[name](database, { point, parcel, ...(boundary ? { boundary } : {}) })),
    );
    const products = Object.fromEntries(
      names.flatMap((name, index) => {
        const result = results[index];
        return result?.status === "fulfilled" ? [[name, result.value]] : [];
      }),
    );
    const record: StoredRecord = { products };
    await database.db
      .updateTable("properties")
      .set({ parcel_id: parcel?.parcelId ?? null, record: JSON.stringify(record), updated_at: Date.now() })
      .where("property_id", "=", propertyId)
      .execute();
  };
}
