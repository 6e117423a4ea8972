import type { BoundaryCheck } from "@lotline/contract";
import type { Polygon } from "geojson";
import type { ApiClient } from "./api-client";

/** `POST /embed/api/boundaries/check`: whether a drawn boundary passes the checks an order would make. */
export function checkBoundary(api: ApiClient, boundary: Polygon): Promise<BoundaryCheck> {
  return api.request<BoundaryCheck>("/boundaries/check", { method: "POST", body: { boundary } });
}
