import { DatabaseId, Problem, PropertyRecord } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { getPropertyRecord } from "../../orders/property-records.js";
import type { Services } from "../../services.js";

/** `GET /embed/api/properties/{property_id}`: the property record, as `GET /v1/properties/{property_id}`. */
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
}
