import { useEffect, useRef } from "preact/hooks";
import type { LotMap } from "./create-map";

/** Calls `handler` with the id of each subject building clicked on the map. */
export function useBuildingClick(map: LotMap | undefined, handler: (buildingId: number) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => map?.onBuildingClick((buildingId) => latest.current(buildingId)), [map]);
}
