/**
 * Streaming readers that turn a source file (GeoJSON, GeoJSONSeq, TopoJSON, shapefile, CSV) into WGS 84 GeoJSON
 * features, for the importers. `readSource` is the entry point.
 */
export type { SourceRecord, TextRecord } from "../types.js";
export { type ProgressListener, type ReadOptions, SOURCE_FORMATS, type SourceFormat } from "./read-options.js";
export { readSource, readSourceTexts } from "./read-source.js";
export { SourceError, type SourceErrorCode } from "./source-error.js";
export { sourceFormat, withoutPacking } from "./source-format.js";
