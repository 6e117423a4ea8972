import { AddressSearchResponse, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { searchAddresses } from "../../geo/locate/search-addresses.js";
import type { Services } from "../../services.js";

const Query = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200, description: "What the user has typed so far." }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
});

/** `GET /v1/addresses?q=`: imported addresses matching a typed (possibly half-typed) address, best first. */
export function registerAddressesRoute(app: FastifyInstance, { database }: Services): void {
  app.get<{ Querystring: { q: string; limit?: number } }>(
    "/addresses",
    {
      schema: {
        summary: "Search addresses (autocomplete)",
        tags: ["api"],
        security: [{ bearer: [] }],
        querystring: Query,
        response: { 200: AddressSearchResponse, "4xx": Problem },
      },
    },
    async (request) => ({ data: await searchAddresses(database, request.query.q, request.query.limit ?? 5) }),
  );
}
