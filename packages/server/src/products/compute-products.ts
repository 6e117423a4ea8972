import type { ProductName } from "@lotline/contract";
import { PRODUCT_NAMES } from "@lotline/contract/products";
import { InvalidInputError } from "../errors.js";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import { exposureProduct } from "./exposure-product.js";
import { locationProduct } from "./location-product.js";
import { parcelProduct } from "./parcel-product.js";
import type { ProductInput } from "./product.js";
import { sharesReads, withSharedReads } from "./shared-reads.js";
import { structuresProduct } from "./structures-product.js";
import { thirdPartyProduct } from "./third-party-product.js";

/** Every data product an order can run, by the name a product matrix lists it under. */
export const PRODUCTS = {
  parcel: parcelProduct,
  structures: structuresProduct,
  exposure: exposureProduct,
  location: locationProduct,
  third_party: thirdPartyProduct,
} as const satisfies Record<ProductName, unknown>;

/** What each product answers, by name. */
export type ProductResults = { [Name in ProductName]: Awaited<ReturnType<(typeof PRODUCTS)[Name]>> };

/**
 * Runs the products named (each once, side by side) for one property and answers their results by name. An
 * unknown name is refused before anything runs (`unknown_product`); a product that cannot be served rejects with
 * an `OrderFailure` whose `reason` is the order's failure reason (e.g. `no_parcel_at_location`). The products share
 * their reads (`withSharedReads`), and those already begun through `source` when it shares them.
 *
 * @example
 * await computeProducts(source, ["parcel", "location"], { point, parcel });
 * //= { parcel: { boundary, boundary_source: "imported", area_m2, …, provenance, computed_at }, location: { … } }
 */
export async function computeProducts(
  source: GeoSource,
  names: readonly string[],
  input: ProductInput,
): Promise<Partial<ProductResults>> {
  const unknown = names.filter((name) => !isProductName(name));
  if (unknown.length > 0) {
    throw new InvalidInputError(
      "unknown_product",
      `no such product: ${unknown.join(", ")}; one of ${PRODUCT_NAMES.join(", ")}`,
    );
  }
  const chosen = [...new Set(names as ProductName[])];
  const shared = sharesReads(source) ? source : withSharedReads(source);
  const results = await Promise.all(chosen.map((name) => PRODUCTS[name](shared, input)));
  return Object.fromEntries(chosen.map((name, index) => [name, results[index]]));
}

function isProductName(name: string): name is ProductName {
  return (PRODUCT_NAMES as readonly string[]).includes(name);
}
