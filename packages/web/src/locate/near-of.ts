import type { LatLon } from "../map/create-map";
import type { LocateState } from "./locate-state";

/**
 * Where the map is worth showing while the property is not yet placed: the first address offered, or the best
 * (if poor) match of a search that found nothing good, so the user sees the neighbourhood to click in.
 */
export function nearOf(state: LocateState): LatLon | null {
  if (state.status === "choose") return state.candidates[0]?.location ?? null;
  if (state.status === "not-found") return state.near;
  return null;
}
