import { isJsonObject } from "./json-value.js";

/**
 * Whether a file named as GeoJSON whose first two lines (see `firstLines`) are `lines` holds one Feature per line
 * instead (newline-delimited GeoJSON, as OpenAddresses publishes its `.geojson` files): its first line a whole
 * Feature, and another line after it. A FeatureCollection, however it is laid out, or a lone Feature, is not.
 */
export function holdsFeaturePerLine([first, second]: readonly string[]): boolean {
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
