import type { PropertyVersionList } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** `GET /embed/api/properties/{property_id}/versions`: the record's versions, the current one first. */
export function getPropertyVersions(api: ApiClient, propertyId: number): Promise<PropertyVersionList> {
  return api.request<PropertyVersionList>(`/properties/${propertyId}/versions`);
}
