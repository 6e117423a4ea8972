import type { Attribution, GeoJsonArea } from "@lotline/contract";
import { useEffect } from "preact/hooks";
import type { LotMap } from "./create-map";

/** Keeps the subject parcel on the map (none when null), with its dataset in the attribution. */
export function useMapParcel(
  map: LotMap | undefined,
  boundary: GeoJsonArea | null,
  attribution: Attribution | null = null,
): void {
  useEffect(() => {
    map?.showParcel(boundary, attribution);
  }, [map, boundary, attribution]);
}
