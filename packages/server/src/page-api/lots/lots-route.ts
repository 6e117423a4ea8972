import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";

/** `GET /embed/api/lots?lat=&lon=`: the nearest address, parcel and buildings at a point. */
export function registerLotsRoute(_api: FastifyInstance, _services: Services): void {}
