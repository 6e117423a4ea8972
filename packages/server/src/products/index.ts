/**
 * The data products an order computes for a property, one a file, each a function of the geodata and the order's
 * point, parcel and drawn boundary: `parcel`, `structures`, `exposure`, `location`, `third_party`. Every result
 * carries the provenance of the data it came from and when it was computed. Orders that cannot be served fail
 * with one of the documented reasons in `failure-reasons.ts`.
 */
export { checkBoundary } from "./check-boundary.js";
export { computeProducts, PRODUCTS, type ProductResults } from "./compute-products.js";
export { EXPOSURE_ZONES_M, type ExposureResult, MAX_SEARCH_M, type StructureExposure } from "./exposure-product.js";
export * from "./failure-reasons.js";
export { CENSUS_BOUNDARIES, type LocationResult, NATURAL_EARTH_LAND } from "./location-product.js";
export type { ParcelResult } from "./parcel-product.js";
export type { Product, ProductInput, ProductResult, Provenance } from "./product.js";
export { USER_DRAWN } from "./provenance.js";
export type { Structure, StructuresResult } from "./structures-product.js";
export {
  NEAREST_FEATURE_MAX_M,
  type PointLayerResult,
  type PolygonLayerResult,
  type ThirdPartyResult,
} from "./third-party-product.js";
