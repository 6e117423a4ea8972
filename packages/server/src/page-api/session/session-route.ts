import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `GET /embed/api/session`: the page's session (PageSession), also used to check a refreshed token. */
export function registerSessionRoute(_api: FastifyInstance, _services: Services): void {}
