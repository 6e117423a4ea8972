import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SourceRecord } from "../types.js";
import type { ReadOptions } from "./read-options.js";
import { readShapefile } from "./shapefile-reader.js";
import { extractShapefile } from "./shapefile-zip.js";

/**
 * Reads a zipped shapefile: extracts its members into a temporary folder (see `extractShapefile`; `options.object`
 * chooses among several shapefiles), streams them as `readShapefile` does, and removes the folder when reading
 * ends, fails or is abandoned with `break`/`return`. Progress counts the bytes of the extracted `.shp`.
 */
export async function* readZippedShapefile(
  zipPath: string,
  options: ReadOptions,
): AsyncGenerator<SourceRecord, void, undefined> {
  const folder = await mkdtemp(join(tmpdir(), "lotline-shapefile-"));
  try {
    const shp = await extractShapefile(zipPath, folder, options.object);
    yield* readShapefile(shp, options, zipPath);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
