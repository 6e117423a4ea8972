import { BoundaryCheck, GeoJsonPolygon, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { geodesicArea } from "../../geo/geometry/index.js";
import { checkBoundary } from "../../products/check-boundary.js";
import { failureMessage } from "../../products/failure-messages.js";
import { round } from "../../products/round.js";
import type { Services } from "../../services.js";

const BoundaryCheckRequest = Type.Object({ boundary: GeoJsonPolygon }, { additionalProperties: false });

/** `POST /embed/api/boundaries/check`: a redrawn boundary checked as an order checks it. */
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
      const checked = checkBoundary(request.body.boundary);
      if ("reason" in checked) return { valid: false, reason: checked.reason, message: failureMessage(checked.reason) };
      return { valid: true, area_m2: round(geodesicArea(checked)) };
    },
  );
}
