import { AddressSearchResponse, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { AddressSearchQuery, answerAddressSearch } from "../../api/addresses/address-search.js";
import type { Services } from "../../services.js";

/** `GET /embed/api/addresses?q=`: address candidates for the pages' search, exactly as `GET /v1/addresses`. */
export function registerPageAddressesRoute(api: FastifyInstance, { database }: Services): void {
  api.get<{ Querystring: AddressSearchQuery }>(
    "/addresses",
    {
      schema: {
        hide: true,
        summary: "Search addresses (autocomplete)",
        querystring: AddressSearchQuery,
        response: { 200: AddressSearchResponse, "4xx": Problem },
      },
    },
    async (request) => answerAddressSearch(database, request.query),
  );
}
