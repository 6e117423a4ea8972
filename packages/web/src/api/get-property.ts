import type { PropertyRecord } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** `GET /embed/api/properties/{property_id}`: the property record (404 `property_not_found` if not the org's). */
export function getProperty(api: ApiClient, propertyId: number): Promise<PropertyRecord> {
  return api.request<PropertyRecord>(`/properties/${propertyId}`);
}
