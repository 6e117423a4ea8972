import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `GET /embed/api/addresses?q=`: address candidates for the pages' search. */
export function registerPageAddressesRoute(_api: FastifyInstance, _services: Services): void {}
