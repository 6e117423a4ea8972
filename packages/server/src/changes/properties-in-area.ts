import { bboxMeets, type GeoSource } from "../geo/store/spatial-filter.js";
import type { BBox } from "../geo/types.js";
import type { ChangedArea } from "./changed-area.js";

/** The side of a tile the area is read by, degrees: about 5 km, a few thousand lots where a city is densest. */
const TILE = 0.05;

/**
 * The ids of the properties with a record whose lot meets `area`, a tile of its extent at a time, through the
 * spatial index of the properties' lot boxes: each read is bounded by the tile, and the whole by the properties
 * there, however many the database holds. A lot is counted in the one tile holding its south-west corner (or the
 * extent's, for a lot reaching in from outside).
 */
export async function* propertiesInArea(source: GeoSource, area: ChangedArea): AsyncGenerator<number[]> {
  const extent = area.extent;
  if (!extent) return;
  const [west, south, east, north] = extent;
  const columns = Math.max(1, Math.ceil((east - west) / TILE));
  const rows = Math.max(1, Math.ceil((north - south) / TILE));
  const tileOf = (value: number, from: number, count: number) =>
    Math.min(count - 1, Math.floor((Math.max(value, from) - from) / TILE));
  for (let column = 0; column < columns; column++) {
    for (let row = 0; row < rows; row++) {
      const tile: BBox = [
        west + column * TILE,
        south + row * TILE,
        Math.min(east, west + (column + 1) * TILE),
        Math.min(north, south + (row + 1) * TILE),
      ];
      if (!area.meets(tile)) continue;
      const found = await source.db
        .selectFrom("properties")
        .select(["property_id", "lot_min_lon", "lot_min_lat", "lot_max_lon", "lot_max_lat"])
        .where(bboxMeets(source.dialect, "properties", tile))
        .orderBy("property_id")
        .execute();
      const ids = found
        .filter((lot) => {
          const box: BBox = [lot.lot_min_lon ?? 0, lot.lot_min_lat ?? 0, lot.lot_max_lon ?? 0, lot.lot_max_lat ?? 0];
          return tileOf(box[0], west, columns) === column && tileOf(box[1], south, rows) === row && area.meets(box);
        })
        .map((lot) => lot.property_id);
      if (ids.length > 0) yield ids;
    }
  }
}
