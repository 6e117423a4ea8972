import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `POST /embed/api/footprints`: the insured buildings the user selected. */
export function registerFootprintsRoute(_api: FastifyInstance, _services: Services): void {}
