import { useEffect } from "preact/hooks";
import type { LotMap } from "./create-map";
import type { SubjectBuilding } from "./subject-building";

/** Keeps the lot's buildings on the map in their primary and selected states. */
export function useMapBuildings(map: LotMap | undefined, buildings: readonly SubjectBuilding[]): void {
  useEffect(() => {
    map?.showBuildings(buildings);
  }, [map, buildings]);
}
