import { DatabaseId, Problem, PropertyRecord, PropertyVersionList } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { getPropertyRecord } from "../../orders/property-records.js";
import type { Services } from "../../services.js";
import { listVersions } from "../../versions/version-queries.js";

/**
 * `GET /embed/api/properties/{property_id}`: the property record, as `GET /v1/properties/{property_id}`; and
 * `…/versions`, its versions, as `GET /v1/properties/{property_id}/versions`.
 */
export function registerPagePropertiesRoute(api: FastifyInstance, { db }: Services): void {
  api.get<{ Params: { property_id: number } }>(
    "/properties/:property_id",
    {
      schema: {
        hide: true,
        summary: "A property record",
        params: Type.Object({ property_id: DatabaseId() }),
        response: { 200: PropertyRecord, "4xx": Problem },
      },
    },
    async (request) => getPropertyRecord(db, request.session.orgId, request.params.property_id),
  );

  api.get<{ Params: { property_id: number } }>(
    "/properties/:property_id/versions",
    {
      schema: {
        hide: true,
        summary: "The versions of a property record",
        params: Type.Object({ property_id: DatabaseId() }),
        response: { 200: PropertyVersionList, "4xx": Problem },
      },
    },
    async (request) => listVersions(db, request.session.orgId, request.params.property_id),
  );
}
