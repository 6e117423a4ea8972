import type { SourceRecord } from "../types.js";
import type { Reprojection } from "./crs.js";
import { isGeometryType, wgs84Geometry } from "./geometry.js";
import { isJsonObject, messageOf, preview } from "./json-value.js";

/** What a parsed value is, in words, for "expected a Feature, found …". */
function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (isJsonObject(value))
    return typeof value.type === "string" ? `a ${preview(value.type)}` : "an object without a type";
  return preview(value);
}

/**
 * The record for one parsed GeoJSON value: a Feature with its geometry checked and reprojected to WGS 84 (see
 * `wgs84Geometry`), its properties (null or absent become `{}`) and its id; or, when `bareGeometry` is true, a bare
 * geometry wrapped in a Feature without properties. A Feature whose geometry is null or absent passes through with
 * `geometry: null`: whether a geometry is required is for the importer to say. Anything else is an error record.
 */
export function featureRecord(
  number: number,
  value: unknown,
  reproject: Reprojection | null,
  bareGeometry: boolean,
): SourceRecord {
  if (!isJsonObject(value)) return { number, error: `expected a GeoJSON Feature, found ${describe(value)}` };
  if (value.type !== "Feature") {
    if (!(bareGeometry && isGeometryType(value.type))) {
      return { number, error: `expected a GeoJSON Feature, found ${describe(value)}` };
    }
    const read = wgs84Geometry(value, reproject);
    if (read.error !== undefined) return { number, error: read.error };
    return { number, feature: { type: "Feature", properties: {}, geometry: read.geometry } };
  }
  const { id, properties } = value;
  if (properties != null && !isJsonObject(properties)) {
    return { number, error: `the properties are ${describe(properties)}, not an object` };
  }
  let geometry = null;
  if (value.geometry != null) {
    const read = wgs84Geometry(value.geometry, reproject);
    if (read.error !== undefined) return { number, error: read.error };
    geometry = read.geometry;
  }
  return {
    number,
    feature: {
      type: "Feature",
      ...(typeof id === "string" || typeof id === "number" ? { id } : {}),
      properties: properties ?? {},
      geometry,
    },
  };
}

/** The record of one JSON text (a GeoJSONSeq line): its Feature, reprojected, or why it cannot be read. */
export function recordOfText(number: number, text: string, reprojection: Reprojection | null): SourceRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (thrown) {
    return { number, error: `not valid JSON: ${messageOf(thrown)}` };
  }
  return featureRecord(number, value, reprojection, true);
}
