import { useEffect, useRef } from "preact/hooks";
import type { LatLon, LotMap } from "./create-map";

/** Calls `handler` with the location of each click on the map while it is given (undefined: clicks do nothing). */
export function useMapClick(map: LotMap | undefined, handler: ((location: LatLon) => void) | undefined): void {
  const latest = useRef(handler);
  latest.current = handler;
  const active = handler !== undefined;
  useEffect(() => {
    if (!map || !active) return;
    const container = map.map.getCanvasContainer();
    container.classList.add("map--placing");
    const unsubscribe = map.onMapClick((location) => latest.current?.(location));
    return () => {
      container.classList.remove("map--placing");
      unsubscribe();
    };
  }, [map, active]);
}
