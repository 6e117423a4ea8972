import { firstLines } from "./first-lines.js";
import { isJsonObject } from "./json-value.js";
import type { ReadOptions } from "./read-options.js";

/**
 * Whether a file named as GeoJSON holds one Feature per line instead (newline-delimited GeoJSON, as OpenAddresses
 * publishes its `.geojson` files): its first line a whole Feature, and another line after it. A FeatureCollection,
 * however it is laid out, or a lone Feature, is not.
 */
export async function holdsFeaturePerLine(
  path: string,
  options: Pick<ReadOptions, "object" | "format">,
): Promise<boolean> {
  const [first, second] = await firstLines(path, options, 2);
  return first !== undefined && second !== undefined && isFeature(first);
}

function isFeature(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return isJsonObject(value) && value.type === "Feature";
  } catch {
    return false;
  }
}
