import type { AddressSearchResponse } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** `GET /embed/api/addresses?q=&limit=`: imported addresses matching the text, best first. */
export function searchAddresses(api: ApiClient, text: string, limit = 5): Promise<AddressSearchResponse> {
  return api.request<AddressSearchResponse>("/addresses", { query: { q: text, limit } });
}
