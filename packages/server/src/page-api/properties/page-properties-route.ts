import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `GET /embed/api/properties/{property_id}`: the property record. */
export function registerPagePropertiesRoute(_api: FastifyInstance, _services: Services): void {}
