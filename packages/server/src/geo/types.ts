import type { Feature, GeoJsonProperties, Geometry, MultiPolygon, Point, Polygon, Position } from "geojson";

/** A polygonal geometry: a parcel boundary, a building footprint, a hazard zone. WGS 84 longitude/latitude. */
export type Area = Polygon | MultiPolygon;

/** A point as `[lon, lat]`, WGS 84. */
export type LonLat = [number, number];

/** `[minLon, minLat, maxLon, maxLat]`. */
export type BBox = [number, number, number, number];

export type { Feature, GeoJsonProperties, Geometry, MultiPolygon, Point, Polygon, Position };

/**
 * One record read from a source file, numbered as a person would find it again: the feature's 1-based position
 * in a GeoJSON, TopoJSON or shapefile, or the line number of a CSV or GeoJSONSeq row. A record that could not be
 * read carries the reason instead of a feature.
 */
export type SourceRecord =
  | { number: number; feature: Feature<Geometry | null, Record<string, unknown>> }
  | { number: number; error: string };

/**
 * A GeoJSONSeq record not yet parsed: its JSON text and line number. An import whose threads parse its records reads
 * these instead (`readGeoJsonSeqTexts`), so that the thread that reads and writes does not parse every feature.
 */
export interface TextRecord {
  number: number;
  text: string;
}
