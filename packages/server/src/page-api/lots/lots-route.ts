import { Lot, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { lotAt } from "../../geo/lots/lot-at.js";
import type { Services } from "../../services.js";

const LotQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lon: Type.Number({ minimum: -180, maximum: 180 }),
});

/** `GET /embed/api/lots?lat=&lon=`: the nearest address, parcel and buildings at a point. */
export function registerLotsRoute(api: FastifyInstance, { database }: Services): void {
  api.get<{ Querystring: { lat: number; lon: number } }>(
    "/lots",
    {
      schema: {
        hide: true,
        summary: "What is at a point: nearest address, parcel, buildings by area",
        querystring: LotQuery,
        response: { 200: Lot, "4xx": Problem },
      },
    },
    async (request) => lotAt(database, [request.query.lon, request.query.lat]),
  );
}
