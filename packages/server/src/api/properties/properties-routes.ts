import { DatabaseId, Problem, PropertyRecord, PropertyRecordList } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { findPropertiesByExternalId, getPropertyRecord } from "../../orders/property-records.js";
import type { Services } from "../../services.js";

/** `GET /v1/properties/{property_id}` and `GET /v1/properties?external_id=`. */
export function registerPropertiesRoutes(app: FastifyInstance, { db }: Services): void {
  app.get<{ Params: { property_id: number } }>(
    "/properties/:property_id",
    {
      schema: {
        summary: "A property record: parcel, buildings, computed data, third-party data, policy and orders",
        tags: ["properties"],
        security: [{ bearer: [] }],
        params: Type.Object({ property_id: DatabaseId() }),
        response: { 200: PropertyRecord, "4xx": Problem },
      },
    },
    async (request) => getPropertyRecord(db, request.caller.orgId, request.params.property_id),
  );

  app.get<{ Querystring: { external_id: string; limit?: number; cursor?: string } }>(
    "/properties",
    {
      schema: {
        summary: "The organization's property records with an external id",
        tags: ["properties"],
        security: [{ bearer: [] }],
        querystring: Type.Object({
          external_id: Type.String({ minLength: 1, maxLength: 200 }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        }),
        response: { 200: PropertyRecordList, "4xx": Problem },
      },
    },
    async (request) =>
      findPropertiesByExternalId(
        db,
        request.caller.orgId,
        request.query.external_id,
        request.query.limit ?? 20,
        request.query.cursor,
      ),
  );
}
