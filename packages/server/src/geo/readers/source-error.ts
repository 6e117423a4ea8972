import { DomainError } from "../../errors.js";

/**
 * Why a source file cannot be read at all (a record that cannot be read is not an error of the file: it comes out
 * as `{ number, error }` and reading goes on).
 */
export type SourceErrorCode =
  /** The path names no file, or a folder. */
  | "source_not_found"
  /** Neither `options.format` nor the file's name says which reader to use. */
  | "unsupported_format"
  /** The file is not what its format promises: invalid JSON, not GeoJSON or TopoJSON, a corrupt zip or shapefile. */
  | "unreadable_source"
  /** `options.object` names no object of the TopoJSON (or no shapefile in the zip), or a zip holds several. */
  | "unknown_object"
  /** A coordinate system that cannot be used: an unknown EPSG code, an unreadable `.prj` or `crs` member. */
  | "unknown_crs"
  /** A shapefile without `.prj` whose coordinates are not longitude/latitude, read without `options.crs`. */
  | "crs_required"
  /** `options.lonColumn` or `options.latColumn` names no column of the CSV header. */
  | "unknown_column"
  /** Options that do not fit together, such as a longitude column without a latitude column. */
  | "invalid_options";

/** A source file that cannot be read at all; the message names the file and says what to do about it. */
export class SourceError extends DomainError {
  declare readonly code: SourceErrorCode;

  constructor(code: SourceErrorCode, message: string) {
    super(code, message);
  }
}
