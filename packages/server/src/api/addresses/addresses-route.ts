import { AddressSearchResponse, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";
import { AddressSearchQuery, answerAddressSearch } from "./address-search.js";

/** `GET /v1/addresses?q=`: imported addresses matching a typed (possibly half-typed) address, best first. */
export function registerAddressesRoute(app: FastifyInstance, { database }: Services): void {
  app.get<{ Querystring: AddressSearchQuery }>(
    "/addresses",
    {
      schema: {
        summary: "Search addresses (autocomplete)",
        tags: ["api"],
        security: [{ bearer: [] }],
        querystring: AddressSearchQuery,
        response: { 200: AddressSearchResponse, "4xx": Problem },
      },
    },
    async (request) => answerAddressSearch(database, request.query),
  );
}
