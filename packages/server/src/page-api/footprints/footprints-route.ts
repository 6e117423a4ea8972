import { FootprintAccepted, FootprintSubmission, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import { submitFootprints } from "../../footprints/submit-footprints.js";
import { HttpProblem } from "../../http/problem.js";
import type { Services } from "../../services.js";

/** `POST /embed/api/footprints`: the insured buildings the user selected. */
export function registerFootprintsRoute(api: FastifyInstance, services: Services): void {
  api.post<{ Body: FootprintSubmission }>(
    "/footprints",
    {
      schema: {
        hide: true,
        summary: "Store the insured buildings selected on a parcel; send footprint.submitted to callback_url",
        body: FootprintSubmission,
        response: { 202: FootprintAccepted, "4xx": Problem },
      },
    },
    async (request, reply) => {
      const ids = request.body.buildings.map((building) => building.building_id);
      const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
      if (repeated !== undefined) {
        // A request the schema would refuse if JSON Schema could say "unique by building_id".
        throw new HttpProblem(400, "duplicate_building_id", "Bad Request", `building ${repeated} is listed twice`);
      }
      const accepted = await submitFootprints(services.database, request.session.orgId, request.body);
      if (accepted.webhook_id !== null) services.nudgeWorkers();
      return reply.code(202).send(accepted);
    },
  );
}
