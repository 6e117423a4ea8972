import type { OrderRequest, ProductName } from "@lotline/contract";
import { parcelAt } from "../geo/queries/parcel-at.js";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import type { Area } from "../geo/types.js";
import type { StoredRecord } from "../orders/property-records.js";
import { checkBoundary } from "../products/index.js";
import type { ProductInput } from "../products/product.js";

/** What computing a property's record again starts from. */
export interface RecomputeInput {
  propertyId: number;
  orgId: string;
  externalId: string | null;
  /** The record as stored now; null if it has none. */
  record: StoredRecord | null;
  /** The products of the latest completed order's matrix. */
  products: ProductName[];
  /** Where that order located the property, the parcel there now, and the boundary the order drew, if any. */
  input: ProductInput;
}

/**
 * For each property, what its latest completed order computed from, as the data stands now: the place the order
 * located, the imported parcel there now, and the boundary the order drew. A property with no completed order or
 * no place is left out. Reads the properties and their orders in two statements, however many.
 */
export async function recomputeInputs(source: GeoSource, propertyIds: readonly number[]): Promise<RecomputeInput[]> {
  if (propertyIds.length === 0) return [];
  const properties = await source.db
    .selectFrom("properties")
    .select(["property_id", "org_id", "external_id", "lon", "lat", "record"])
    .where("property_id", "in", propertyIds)
    .orderBy("property_id")
    .execute();
  const orders = await source.db
    .selectFrom("orders")
    .innerJoin("product_matrices", "product_matrices.product_matrix_id", "orders.product_matrix_id")
    .select(["orders.property_id", "orders.request", "product_matrices.products"])
    .where("orders.property_id", "in", propertyIds)
    .where("orders.status", "=", "complete")
    .orderBy("orders.property_id")
    .orderBy("orders.created_at", "desc")
    .orderBy("orders.order_id", "desc")
    .execute();
  const latestOrder = new Map<number, (typeof orders)[number]>();
  for (const order of orders) if (!latestOrder.has(order.property_id)) latestOrder.set(order.property_id, order);

  const inputs: RecomputeInput[] = [];
  for (const property of properties) {
    const order = latestOrder.get(property.property_id);
    if (!order || property.lon === null || property.lat === null) continue;
    const point: [number, number] = [property.lon, property.lat];
    const boundary = drawnBoundary(JSON.parse(order.request) as OrderRequest);
    inputs.push({
      propertyId: property.property_id,
      orgId: property.org_id,
      externalId: property.external_id,
      record: property.record === null ? null : (JSON.parse(property.record) as StoredRecord),
      products: JSON.parse(order.products) as ProductName[],
      input: { point, parcel: await parcelAt(source, point), ...(boundary ? { boundary } : {}) },
    });
  }
  return inputs;
}

function drawnBoundary(request: OrderRequest): Area | undefined {
  if (!request.parcel_boundary) return undefined;
  const checked = checkBoundary(request.parcel_boundary);
  return "reason" in checked ? undefined : (checked as Area);
}
