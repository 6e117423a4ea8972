import { Caller, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";

/** `GET /v1/me`: the organization and client a bearer token speaks for. */
export function registerMeRoute(app: FastifyInstance): void {
  app.get(
    "/me",
    {
      schema: {
        summary: "Who am I: the caller's organization and client",
        tags: ["api"],
        security: [{ bearer: [] }],
        response: { 200: Caller, "4xx": Problem },
      },
    },
    async (request) => ({ org_id: request.caller.orgId, client_id: request.caller.clientId }),
  );
}
