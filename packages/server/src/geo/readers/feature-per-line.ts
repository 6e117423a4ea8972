import { isJsonObject } from "./json-value.js";
import { openSource } from "./open-source.js";
import type { ReadOptions } from "./read-options.js";

/** How far into a file its first line is looked for: a feature of a newline-delimited file is far shorter. */
const SNIFFED_BYTES = 1 << 20;

/**
 * Whether a file named as GeoJSON holds one Feature per line instead (newline-delimited GeoJSON, as OpenAddresses
 * publishes its `.geojson` files): its first line a whole Feature, and more text after it. A FeatureCollection,
 * however it is laid out, or a lone Feature, is not. Reads at most the first megabyte (unpacked).
 */
export async function holdsFeaturePerLine(
  path: string,
  { object, format }: Pick<ReadOptions, "object" | "format">,
): Promise<boolean> {
  // Without the progress listener: the import's progress starts with its reading.
  const bytes = await openSource(path, { ...(object === undefined ? {} : { object }), ...(format ? { format } : {}) });
  let text = "";
  try {
    for await (const chunk of bytes) {
      text += (chunk as Buffer).toString("utf8");
      const end = text.indexOf("\n");
      if (end !== -1 && text.slice(end + 1).trim() !== "") return isFeature(text.slice(0, end));
      if (text.length >= SNIFFED_BYTES) return false;
    }
    return false;
  } catch {
    // Whatever cannot be read is for the GeoJSON reader to say, in its words.
    return false;
  } finally {
    bytes.destroy();
  }
}

function isFeature(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line.replace(/^\uFEFF/, ""));
    return isJsonObject(value) && value.type === "Feature";
  } catch {
    return false;
  }
}
