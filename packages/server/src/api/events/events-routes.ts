import { Readable } from "node:stream";
import { CatastropheEventList, IMPACTED_PROPERTY_COLUMNS, ImpactedPropertyList, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { allImpactedProperties, impactedProperties, listEvents } from "../../events/event-queries.js";
import { csvLine } from "../../http/csv-line.js";
import { wantsCsv } from "../../http/wants-csv.js";
import type { Services } from "../../services.js";

const Page = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});

/** `GET /v1/events` and `GET /v1/events/{event_id}/impacted-properties`. */
export function registerEventsRoutes(app: FastifyInstance, { db }: Services): void {
  app.get<{ Querystring: { limit?: number; cursor?: string } }>(
    "/events",
    {
      schema: {
        summary: "Catastrophe events, newest first, with how many of the organization's properties each met",
        description:
          "Every event the operator imported (lotline import event). impacted_properties counts only this " +
          "organization's ordered properties whose parcel (or, lacking one, location or an insured building) the " +
          "event's area meets; 0 when none did.",
        tags: ["monitoring"],
        security: [{ bearer: [] }],
        querystring: Page,
        response: { 200: CatastropheEventList, "4xx": Problem },
      },
    },
    async (request) =>
      listEvents(db, request.caller.orgId, {
        limit: request.query.limit ?? 100,
        ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
      }),
  );

  app.get<{ Params: { event_id: string }; Querystring: { limit?: number; cursor?: string } }>(
    "/events/:event_id/impacted-properties",
    {
      schema: {
        summary: "The organization's properties an event met",
        description:
          "By property id, a page at a time. With Accept: text/csv, the whole list as CSV (a header row, then the " +
          "same fields in the same order; a text cell starting like a formula gets a leading ').",
        tags: ["monitoring"],
        security: [{ bearer: [] }],
        params: Type.Object({ event_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: Page,
        response: {
          200: {
            description: "The impacted properties.",
            content: {
              "application/json": { schema: ImpactedPropertyList },
              "text/csv": { schema: { type: "string" } },
            },
          },
          "4xx": Problem,
        },
      },
    },
    async (request, reply) => {
      const { orgId } = request.caller;
      const eventId = request.params.event_id;
      if (!wantsCsv(request)) {
        return impactedProperties(db, orgId, eventId, {
          limit: request.query.limit ?? 100,
          ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
        });
      }
      const rows = await allImpactedProperties(db, orgId, eventId);
      const lines = async function* () {
        yield csvLine(IMPACTED_PROPERTY_COLUMNS);
        for await (const row of rows) yield csvLine(IMPACTED_PROPERTY_COLUMNS.map((column) => row[column]));
      };
      return reply.code(200).type("text/csv; charset=utf-8").send(Readable.from(lines()));
    },
  );
}
