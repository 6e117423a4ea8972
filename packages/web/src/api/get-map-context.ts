import type { MapContext } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** West, south, east, north in degrees (WGS 84). */
export type Bbox = readonly [west: number, south: number, east: number, north: number];

/** `GET /embed/api/map/context?bbox=w,s,e,n`: neighbouring parcels, buildings and hazard layers in the box. */
export function getMapContext(api: ApiClient, bbox: Bbox, signal?: AbortSignal): Promise<MapContext> {
  const query = { bbox: bbox.map((degrees) => degrees.toFixed(6)).join(",") };
  return api.request<MapContext>("/map/context", { query, ...(signal === undefined ? {} : { signal }) });
}
