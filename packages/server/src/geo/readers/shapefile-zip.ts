import { createWriteStream } from "node:fs";
import { join, posix } from "node:path";
import { pipeline } from "node:stream/promises";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { messageOf } from "./json-value.js";
import { SourceError } from "./source-error.js";
import { isZipClutter } from "./zip-clutter.js";

/** The members of a shapefile that reading it needs (the `.shx` index is not: records are read in order). */
const MEMBERS = [".shp", ".dbf", ".prj", ".cpg"];

/** A member's path inside the zip without its extension, lower-cased: the key its companions share. */
function stemOf(fileName: string): string {
  return fileName.slice(0, fileName.length - posix.extname(fileName).length).toLowerCase();
}

/**
 * Extracts one shapefile's `.shp`, `.dbf`, `.prj` and `.cpg` from a zip into `folder` (as `layer.shp`, … so no
 * name from the zip reaches the file system) and returns the path of the `.shp`. A zip holding several shapefiles
 * needs `layer`, the name of one without `.shp` (or its path inside the zip). Throws a {@link SourceError} for a
 * file that is not a zip, a zip without a shapefile, or an unknown or missing `layer`.
 */
export async function extractShapefile(zipPath: string, folder: string, layer?: string): Promise<string> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(zipPath, { autoClose: false, lazyEntries: true });
  } catch (thrown) {
    throw new SourceError("unreadable_source", `${zipPath}: not a readable zip archive: ${messageOf(thrown)}`);
  }
  try {
    const entries: Entry[] = [];
    try {
      for await (const entry of zip.eachEntry()) if (!isZipClutter(entry.fileName)) entries.push(entry);
    } catch (thrown) {
      throw new SourceError("unreadable_source", `${zipPath}: not a readable zip archive: ${messageOf(thrown)}`);
    }
    const shp = chooseLayer(
      zipPath,
      entries.filter((entry) => posix.extname(entry.fileName).toLowerCase() === ".shp"),
      layer,
    );
    const stem = stemOf(shp.fileName);
    for (const entry of entries) {
      const extension = posix.extname(entry.fileName).toLowerCase();
      if (stemOf(entry.fileName) !== stem || !MEMBERS.includes(extension)) continue;
      try {
        await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(join(folder, `layer${extension}`)));
      } catch (thrown) {
        throw new SourceError(
          "unreadable_source",
          `${zipPath}: cannot extract ${entry.fileName}: ${messageOf(thrown)}`,
        );
      }
    }
    return join(folder, "layer.shp");
  } finally {
    zip.close();
  }
}

function chooseLayer(zipPath: string, shps: Entry[], layer: string | undefined): Entry {
  const names = shps.map((entry) => `"${posix.basename(entry.fileName, posix.extname(entry.fileName))}"`).join(", ");
  if (layer !== undefined) {
    const wanted = layer.toLowerCase().replace(/\.shp$/, "");
    const match = shps.find(
      (entry) => stemOf(entry.fileName) === wanted || stemOf(posix.basename(entry.fileName)) === wanted,
    );
    if (match) return match;
    throw new SourceError("unknown_object", `${zipPath} holds no shapefile "${layer}"; it holds ${names || "none"}`);
  }
  const [only, ...others] = shps;
  if (only === undefined) throw new SourceError("unreadable_source", `${zipPath} holds no .shp file`);
  if (others.length > 0) {
    throw new SourceError("unknown_object", `${zipPath} holds several shapefiles (${names}); choose one with --object`);
  }
  return only;
}
