import { useEffect } from "preact/hooks";
import type { LatLon, LotMap } from "./create-map";

/** Keeps the map's pin at `location` (none when null). */
export function useMapPin(map: LotMap | undefined, location: LatLon | null): void {
  const lat = location?.lat;
  const lon = location?.lon;
  useEffect(() => {
    map?.showPin(lat === undefined || lon === undefined ? null : { lat, lon });
  }, [map, lat, lon]);
}
