export {
  DEFAULT_BLOCKS,
  DEFAULT_SEED,
  generateNeighbourhood,
  type NeighbourhoodOptions,
} from "./generate-neighbourhood.js";
export { DEMO_LOCATION } from "./location.js";
export { type DemoFiles, type LabelledCollection, toGeoJsonFiles } from "./to-geojson-files.js";
export * from "./types.js";
