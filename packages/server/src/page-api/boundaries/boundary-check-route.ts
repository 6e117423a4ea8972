import { BoundaryCheck, GeoJsonPolygon, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { checkBoundaryOffThread } from "../../products/check-boundary-off-thread.js";
import { failureMessage } from "../../products/failure-messages.js";
import { round } from "../../products/round.js";
import type { Services } from "../../services.js";

const BoundaryCheckRequest = Type.Object({ boundary: GeoJsonPolygon }, { additionalProperties: false });

/**
 * `POST /embed/api/boundaries/check`: a redrawn boundary checked as an order checks it, on a geometry worker; beyond
 * the geometry limits a `422` problem (`geometry_limit_exceeded`).
 */
export function registerBoundaryCheckRoute(api: FastifyInstance, _services: Services): void {
  api.post<{ Body: { boundary: unknown } }>(
    "/boundaries/check",
    {
      schema: {
        hide: true,
        summary: "Check a drawn parcel boundary as an order would",
        body: BoundaryCheckRequest,
        response: { 200: BoundaryCheck, "4xx": Problem },
      },
    },
    async (request): Promise<BoundaryCheck> => {
      const verdict = await checkBoundaryOffThread(request.body.boundary, "boundary");
      if (!verdict.valid) return { valid: false, reason: verdict.reason, message: failureMessage(verdict.reason) };
      return { valid: true, area_m2: round(verdict.areaM2) };
    },
  );
}
