import { representativePoint } from "../geometry/index.js";
import type { Area } from "../types.js";

/**
 * A point inside `area` as `{lat, lon}`: where a page puts a building's marker or a property's pin. It is the
 * representative point, not the centre of mass, which an L-shaped building can hold outside its walls.
 */
export function latLonInside(area: Area): { lat: number; lon: number } {
  const [lon = Number.NaN, lat = Number.NaN] = representativePoint(area);
  return { lat, lon };
}
