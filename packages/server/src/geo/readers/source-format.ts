import type { SourceFormat } from "./read-options.js";
import { SourceError } from "./source-error.js";

/** File name endings and the format each stands for; the first that matches wins (`.topo.json` before `.json`). */
const ENDINGS: ReadonlyArray<readonly [string, SourceFormat]> = [
  [".topo.json", "topojson"],
  [".topojson", "topojson"],
  [".geojson", "geojson"],
  [".json", "geojson"],
  [".geojsonl", "geojsonseq"],
  [".geojsons", "geojsonseq"],
  [".geojsonseq", "geojsonseq"],
  [".ndjson", "geojsonseq"],
  [".jsonl", "geojsonseq"],
  [".shp", "shapefile"],
  [".zip", "shapefile"],
  [".gpkg", "geopackage"],
  [".csv", "csv"],
];

/** How a source file's bytes are packed: as they are, gzipped (`.gz`), or as the one member of a zip. */
export type Packing = "plain" | "gzip" | "zip";

/**
 * The format to read `path` in: `format` when given, else the one its name ends in (case-insensitively), looking
 * past a compression's ending: `parcels.geojsonl.gz`, `Massachusetts.geojson.zip` (a zip holding a GeoJSON file,
 * as statewide building footprints are published). A plain `.zip` holds a shapefile.
 */
export function sourceFormat(path: string, format?: SourceFormat): SourceFormat {
  const inner = formatOfName(unpackedName(path));
  if (packingOf(path) === "gzip" && (format ?? inner) === "shapefile") {
    throw new SourceError(
      "unsupported_format",
      `${path}: a shapefile cannot be read gzipped; zip its .shp with its .dbf and .prj instead`,
    );
  }
  if (format !== undefined) return format;
  if (inner) return inner;
  const known = [...new Set(ENDINGS.map(([suffix]) => suffix))].join(", ");
  throw new SourceError(
    "unsupported_format",
    `${path}: cannot tell the format from the file name; name it with one of ${known} (then .gz if gzipped, ` +
      ".zip if zipped), or give the format",
  );
}

/**
 * How `path`'s bytes are packed, by its name: `.gz` is gzip; a `.zip` is a zip of one file when the name before it
 * ends in a format's ending (`.geojson.zip`) or `format` names one (`--format csv` for `NAD.zip`), and otherwise a
 * zipped shapefile, which its reader extracts.
 */
export function packingOf(path: string, format?: SourceFormat): Packing {
  const name = path.toLowerCase();
  if (name.endsWith(".gz")) return "gzip";
  if (!name.endsWith(".zip")) return "plain";
  const inner = format ?? formatOfName(name.slice(0, -".zip".length));
  return inner === undefined || inner === "shapefile" ? "plain" : "zip";
}

/** `path` without the ending of its packing (`parcels.geojsonl.gz` → `parcels.geojsonl`): what the file inside is. */
export function withoutPacking(path: string): string {
  return packingOf(path) === "plain" ? path : path.slice(0, path.lastIndexOf("."));
}

function unpackedName(path: string): string {
  return withoutPacking(path).toLowerCase();
}

/** The format a file's name says by its ending, not looking past a packing's (`x.geojson.gz` says none). */
export function formatOfName(name: string): SourceFormat | undefined {
  return ENDINGS.find(([suffix]) => name.toLowerCase().endsWith(suffix))?.[1];
}
