import { createReadStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { open } from "shapefile";
import type { SourceRecord } from "../types.js";
import { type Reprojection, reprojectionFrom } from "./crs.js";
import { featureRecord } from "./feature-record.js";
import { messageOf } from "./json-value.js";
import { openSource } from "./open-source.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";

/** The files beside a `.shp` with the same name, any case: attributes, coordinate system, attribute encoding. */
async function companions(shpPath: string): Promise<{ dbf?: string; prj?: string; cpg?: string }> {
  const folder = dirname(shpPath);
  const stem = basename(shpPath, extname(shpPath)).toLowerCase();
  const found: { dbf?: string; prj?: string; cpg?: string } = {};
  for (const name of await readdir(folder)) {
    const extension = extname(name).toLowerCase();
    if (basename(name, extname(name)).toLowerCase() !== stem) continue;
    if (extension === ".dbf" || extension === ".prj" || extension === ".cpg")
      found[extension.slice(1) as "dbf"] = join(folder, name);
  }
  return found;
}

/**
 * The TextDecoder label for the encoding a `.cpg` names (`UTF-8`, `1252`, `ANSI 1252`, `ISO 8859-1`, …). Without a
 * `.cpg`, or with one this does not understand, attributes are decoded as Windows-1252, the dBase default.
 */
function dbfEncoding(cpg: string): string {
  const name = cpg.trim().toUpperCase();
  if (/^(?:UTF-?8|65001)$/.test(name)) return "utf-8";
  const windows = /^(?:ANSI\s*|CP|WINDOWS-?)?(874|125\d)$/.exec(name)?.[1];
  if (windows) return `windows-${windows}`;
  const iso = /^(?:ISO[-_ ]?)?8859[-_ ]?(\d{1,2})$/.exec(name)?.[1];
  if (iso) return `iso-8859-${iso}`;
  return "windows-1252";
}

/** Whether a bounding box `[xmin, ymin, xmax, ymax]` could be longitude/latitude. */
function plausiblyLonLat(bbox: number[]): boolean {
  const [xmin = 0, ymin = 0, xmax = 0, ymax = 0] = bbox;
  return xmin >= -180 && xmax <= 180 && ymin >= -90 && ymax <= 90;
}

/**
 * Streams an ESRI shapefile record by record with shapefile's `open().read()`: the geometry from the `.shp`, the
 * properties from the `.dbf` beside it (decoded as its `.cpg` says; no `.dbf` gives empty properties). The number
 * is the record's 1-based position. Coordinates are reprojected to WGS 84 from `options.crs`, else from the `.prj`;
 * a shapefile with neither whose bounding box is not longitude/latitude is a {@link SourceError} asking for
 * `--crs`. A record whose coordinates cannot be read is an error record; a null shape passes with a null geometry.
 * Polygon rings keep the shapefile's winding (outer rings clockwise). `label` names the file in messages.
 */
export async function* readShapefile(
  shpPath: string,
  options: ReadOptions,
  label = shpPath,
): AsyncGenerator<SourceRecord, void, undefined> {
  const { dbf, prj, cpg } = await companions(shpPath);
  const prjText = prj === undefined ? "" : (await readFile(prj, "utf8")).trim();
  let reprojection: Reprojection | null = null;
  if (options.crs !== undefined) reprojection = reprojectionFrom(options.crs, "--crs");
  else if (prjText !== "") reprojection = reprojectionFrom(prjText, `${label} (.prj)`);
  const encoding = cpg === undefined ? "windows-1252" : dbfEncoding(await readFile(cpg, "utf8"));

  const shp = await openSource(shpPath, { onProgress: options.onProgress });
  const attributes = dbf === undefined ? undefined : createReadStream(dbf);
  let source: Awaited<ReturnType<typeof open>>;
  try {
    source = await open(shp, attributes, { encoding });
  } catch (thrown) {
    shp.destroy();
    attributes?.destroy();
    throw new SourceError("unreadable_source", `${label}: not a readable shapefile: ${messageOf(thrown)}`);
  }
  try {
    if (options.crs === undefined && prjText === "" && !plausiblyLonLat(source.bbox)) {
      const [xmin, ymin, xmax, ymax] = source.bbox.map((n) => Math.round(n));
      throw new SourceError(
        "crs_required",
        `${label} has no .prj and its coordinates (x ${xmin}…${xmax}, y ${ymin}…${ymax}) are not longitude/latitude; ` +
          "give its coordinate system with --crs, e.g. --crs EPSG:2249",
      );
    }
    for (let number = 1; ; number++) {
      let step: Awaited<ReturnType<typeof source.read>>;
      try {
        step = await source.read();
      } catch (thrown) {
        throw new SourceError("unreadable_source", `${label}: cannot read record ${number}: ${messageOf(thrown)}`);
      }
      if (step.done) return;
      yield featureRecord(number, step.value, reprojection, false);
    }
  } finally {
    await source.cancel().catch(() => {});
    shp.destroy();
    attributes?.destroy();
  }
}
