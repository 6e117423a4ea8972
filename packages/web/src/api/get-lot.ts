import type { Lot } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** `GET /embed/api/lots?lat=&lon=`: the nearest address, the parcel at the point and its buildings. */
export function getLot(api: ApiClient, location: { lat: number; lon: number }): Promise<Lot> {
  return api.request<Lot>("/lots", { query: { lat: location.lat, lon: location.lon } });
}
