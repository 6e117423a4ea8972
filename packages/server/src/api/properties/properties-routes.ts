import {
  DATABASE_ID_MAX,
  DatabaseId,
  Problem,
  PropertyRecord,
  PropertyRecordList,
  PropertyVersion,
  PropertyVersionList,
} from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { findPropertiesByExternalId, getPropertyRecord } from "../../orders/property-records.js";
import type { Services } from "../../services.js";
import { getVersion, listVersions } from "../../versions/version-queries.js";

/**
 * `GET /v1/properties/{property_id}`, `GET /v1/properties?external_id=`, and the versions of a property's record:
 * `GET /v1/properties/{property_id}/versions[/{version}]`.
 */
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

  app.get<{ Params: { property_id: number } }>(
    "/properties/:property_id/versions",
    {
      schema: {
        summary: "Every version of a property's record, the current one first",
        description:
          "A version is made when an order completes and when imported data changing under the property changes " +
          "a figure of its record (then a property.changed webhook goes to the monitoring callback). Each lists " +
          "the datasets, with their vintages, that it was computed from.",
        tags: ["properties"],
        security: [{ bearer: [] }],
        params: Type.Object({ property_id: DatabaseId() }),
        response: { 200: PropertyVersionList, "4xx": Problem },
      },
    },
    async (request) => listVersions(db, request.caller.orgId, request.params.property_id),
  );

  app.get<{ Params: { property_id: number; version: number } }>(
    "/properties/:property_id/versions/:version",
    {
      schema: {
        summary: "One version of a property's record, as it was",
        tags: ["properties"],
        security: [{ bearer: [] }],
        params: Type.Object({
          property_id: DatabaseId(),
          version: Type.Integer({ minimum: 1, maximum: DATABASE_ID_MAX }),
        }),
        response: { 200: PropertyVersion, "4xx": Problem },
      },
    },
    async (request) => getVersion(db, request.caller.orgId, request.params.property_id, request.params.version),
  );
}
