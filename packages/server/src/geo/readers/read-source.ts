import { stat } from "node:fs/promises";
import type { SourceRecord, TextRecord } from "../types.js";
import { laidOutByLine } from "./feature-collection-lines.js";
import { holdsFeaturePerLine } from "./feature-per-line.js";
import { firstLines } from "./first-lines.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";
import { sourceFormat } from "./source-format.js";

async function requireFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch {
    throw new SourceError("source_not_found", `${path}: no such file`);
  }
  if (!isFile) throw new SourceError("source_not_found", `${path} is not a file`);
}

/**
 * Reads a source file as WGS 84 GeoJSON features, one record at a time, each numbered as a person would find it
 * again (see `SourceRecord`). The reader follows `options.format`, else the file's name:
 *
 * | name ends in | format | read |
 * |---|---|---|
 * | `.geojson`, `.json` | GeoJSON FeatureCollection, Feature or geometry; or one Feature a line | streamed, one feature in memory at a time |
 * | `.geojsonl`, `.geojsons`, `.geojsonseq`, `.ndjson`, `.jsonl` | GeoJSONSeq / NDJSON, numbered by line | streamed |
 * | `.topojson`, `.topo.json` | TopoJSON, all objects or `options.object` | whole file in memory (arcs are shared) |
 * | `.shp`, `.zip` | ESRI shapefile with its `.dbf`, `.prj`, `.cpg`; a zip is extracted to a temporary folder | streamed |
 * | `.gpkg` | GeoPackage: its feature table, or the table `options.object` names | streamed, row by row |
 * | `.csv` | CSV with a header line; points from `lonColumn`/`latColumn`; numbered by line | streamed |
 *
 * Any of these but a shapefile may also be gzipped (`parcels.geojsonl.gz`), and any but a shapefile zipped alone
 * (`Massachusetts.geojson.zip`; `options.object` names the file of a zip holding several): it is unpacked as it is
 * read (`openSource`), with no copy on disk, but for a GeoPackage, a database that is read where it lies: it is
 * unpacked to a temporary file first.
 *
 * A record that cannot be read comes out as `{ number, error }` and reading goes on; a file that cannot be read at
 * all makes the iteration throw a {@link SourceError} (code and message say why). Coordinates are reprojected to
 * WGS 84 from `options.crs`, a shapefile's `.prj` or a GeoJSON `crs` member, in that order of precedence.
 *
 * @example
 * for await (const record of readSource("Buildings.zip", { onProgress: (done, total) => bar.update(done / total) })) {
 *   if ("error" in record) rejected.push(`feature ${record.number}: ${record.error}`);
 *   else await importBuilding(record.feature);
 * }
 */
export async function* readSource(path: string, options: ReadOptions = {}): AsyncIterable<SourceRecord> {
  const format = sourceFormat(path, options.format);
  await requireFile(path);
  // Each reader is loaded when a file of its format is read: their packages (shapefile, zip, TopoJSON, streamed
  // JSON) were a tenth of every import command's start.
  switch (format) {
    case "geojson": {
      // How the file is laid out, from its first lines: OpenAddresses names its newline-delimited files `.geojson`,
      // and statewide footprints come as a FeatureCollection of a feature a line.
      const lines = await firstLines(path, options, 2);
      if (holdsFeaturePerLine(lines)) yield* (await import("./geojson-seq-reader.js")).readGeoJsonSeq(path, options);
      else yield* (await import("./geojson-reader.js")).readGeoJson(path, options, laidOutByLine(lines));
      return;
    }
    case "geojsonseq":
      yield* (await import("./geojson-seq-reader.js")).readGeoJsonSeq(path, options);
      return;
    case "topojson":
      yield* (await import("./topojson-reader.js")).readTopoJson(path, options);
      return;
    case "shapefile":
      yield* path.toLowerCase().endsWith(".zip")
        ? (await import("./zipped-shapefile-reader.js")).readZippedShapefile(path, options)
        : (await import("./shapefile-reader.js")).readShapefile(path, options);
      return;
    case "geopackage":
      yield* (await import("./geopackage-reader.js")).readGeoPackage(path, options);
      return;
    case "csv":
      yield* (await import("./csv-reader.js")).readCsv(path, options);
      return;
  }
}

/**
 * A GeoJSONSeq file's texts, numbered as {@link readSource} numbers its records but not parsed (see `TextRecord`):
 * for an import whose threads parse them.
 */
export async function* readSourceTexts(path: string, options: ReadOptions = {}): AsyncIterable<TextRecord> {
  await requireFile(path);
  yield* (await import("./geojson-seq-reader.js")).readGeoJsonSeqTexts(path, options);
}
