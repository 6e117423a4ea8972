import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `POST /embed/api/boundaries/check`: a redrawn boundary checked as an order checks it. */
export function registerBoundaryCheckRoute(_api: FastifyInstance, _services: Services): void {}
