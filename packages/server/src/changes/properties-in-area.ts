import { boxesInTiles } from "../geo/store/boxes-in-tiles.js";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import type { ChangedArea } from "./changed-area.js";

/** The side of a tile the area is read by, degrees: about 5 km, a few thousand lots where a city is densest. */
const TILE = 0.05;

/**
 * The ids of the properties with a record whose lot meets `area`, a tile of its extent at a time, through the
 * spatial index of the properties' lot boxes (`boxesInTiles`): bounded by the properties there, however many the
 * database holds.
 */
export async function* propertiesInArea(source: GeoSource, area: ChangedArea): AsyncGenerator<number[]> {
  const extent = area.extent;
  if (!extent) return;
  for await (const lots of boxesInTiles(source, "properties", extent, TILE, (tile) => !area.meets(tile))) {
    const ids = lots.filter((lot) => area.meets(lot.box)).map((lot) => lot.id);
    if (ids.length > 0) yield ids;
  }
}
