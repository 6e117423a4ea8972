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
  [".csv", "csv"],
];

/** The format to read `path` in: `format` when given, else the one its name ends in (case-insensitively). */
export function sourceFormat(path: string, format?: SourceFormat): SourceFormat {
  if (format !== undefined) return format;
  const name = path.toLowerCase();
  const ending = ENDINGS.find(([suffix]) => name.endsWith(suffix));
  if (ending) return ending[1];
  const known = [...new Set(ENDINGS.map(([suffix]) => suffix))].join(", ");
  throw new SourceError(
    "unsupported_format",
    `${path}: cannot tell the format from the file name; name it with one of ${known}, or give the format`,
  );
}
