import type { Bbox } from "../api/get-map-context";

/**
 * The bounding box `[west, south, east, north]` of every position in a GeoJSON geometry's coordinates (any
 * nesting), or undefined when it holds none.
 *
 * @example areaBbox({ type: "Polygon", coordinates: [[[1, 2], [3, 2], [3, 4], [1, 2]]] }) // [1, 2, 3, 4]
 */
export function areaBbox(geometry: { coordinates: unknown }): Bbox | undefined {
  let box: [number, number, number, number] | undefined;
  const visit = (value: unknown): void => {
    if (!Array.isArray(value)) return;
    const [lon, lat] = value;
    if (typeof lon === "number" && typeof lat === "number") {
      box = box
        ? [Math.min(box[0], lon), Math.min(box[1], lat), Math.max(box[2], lon), Math.max(box[3], lat)]
        : [lon, lat, lon, lat];
      return;
    }
    for (const item of value) visit(item);
  };
  visit(geometry.coordinates);
  return box;
}
