/**
 * The data products an order can run; a product matrix chooses among them.
 *
 * Plain TypeScript with no runtime dependency, so that the service's import and order paths
 * (`@lotline/contract/products`) do not load the schema library to learn five names.
 */
export const PRODUCT_NAMES = ["parcel", "structures", "exposure", "location", "third_party"] as const;
