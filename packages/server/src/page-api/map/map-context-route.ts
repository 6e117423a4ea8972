import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `GET /embed/api/map/context?bbox=`: neighbouring parcels, buildings and layers, the map's base. */
export function registerMapContextRoute(_api: FastifyInstance, _services: Services): void {}
