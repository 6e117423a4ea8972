import type { GeoJsonArea } from "@lotline/contract";
import { useEffect } from "preact/hooks";
import type { LatLon, LotMap } from "./create-map";

/**
 * Moves the view to `area` (or to `location` at street level when there is no area) whenever either changes, by
 * identity: pass the lot's own parcel, not a boundary being redrawn, so that drawing does not move the view.
 */
export function useMapFit(map: LotMap | undefined, area: GeoJsonArea | null, location: LatLon | null): void {
  useEffect(() => {
    if (area || location) map?.fitTo(area, location);
  }, [map, area, location]);
}
