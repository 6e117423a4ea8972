import { CustomFieldList, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";
import { listCustomFields } from "../../tenancy/custom-fields.js";

/** `GET /v1/custom-fields`: the caller's organization's custom fields, in the order a form shows them. */
export function registerCustomFieldsRoute(app: FastifyInstance, { db }: Services): void {
  app.get(
    "/custom-fields",
    {
      schema: {
        summary: "List the organization's custom fields",
        description:
          "The policy fields an order's custom_fields may carry: each defined key must hold a value of its type " +
          "(a date is YYYY-MM-DD) and each required one must be present, else the order is refused with " +
          "invalid_custom_fields. A key not defined here is refused the same way.",
        tags: ["api"],
        security: [{ bearer: [] }],
        response: { 200: CustomFieldList, "4xx": Problem },
      },
    },
    async (request) => ({ data: await listCustomFields(db, request.caller.orgId) }),
  );
}
