/** The formats a source file may be in; see {@link ReadOptions.format}. */
export const SOURCE_FORMATS = ["geojson", "geojsonseq", "topojson", "shapefile", "geopackage", "csv"] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/**
 * Called as bytes of the source file are read: `bytesRead` of `totalBytes` so far. It runs ahead of the records
 * yielded by the buffers in between (up to about 64 KiB), which is close enough for a progress bar. It must not throw.
 */
export type ProgressListener = (bytesRead: number, totalBytes: number) => void;

/** How to read a source file; everything is optional. */
export interface ReadOptions {
  /** The file's format; by default it follows from the file's name (see `readSource`). */
  format?: SourceFormat;
  /**
   * The TopoJSON object to read (by default all of them, one after the other), or the shapefile to read from a zip
   * that holds several (its name without `.shp`), or the file to read from a `.geojson.zip` (and the like) that
   * holds several (its name, with or without its ending), or the table to read from a GeoPackage that holds several.
   */
  object?: string;
  /**
   * The coordinate system of the file's coordinates, which are then reprojected to WGS 84: `EPSG:N`,
   * `urn:ogc:def:crs:EPSG::N`, `CRS84`, a proj4 string or WKT. It overrides a shapefile's `.prj`, a GeoJSON `crs`
   * member and a GeoPackage's coordinate system. Without it GeoJSON and TopoJSON are taken as WGS 84 (RFC 7946), a
   * shapefile follows its `.prj` and a GeoPackage its geometry column's coordinate system.
   */
  crs?: string;
  /** CSV only: the column holding each row's longitude (or x, with `crs`); requires `latColumn`. */
  lonColumn?: string;
  /** CSV only: the column holding each row's latitude (or y, with `crs`); requires `lonColumn`. */
  latColumn?: string;
  /** Reports the bytes read so far, for a progress bar. */
  onProgress?: ProgressListener;
}
