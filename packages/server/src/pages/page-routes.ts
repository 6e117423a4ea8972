import type { FastifyInstance } from "fastify";
import type { Services } from "../services.js";

/** The embeddable pages and `/login` (DESIGN.md §7), and the static assets they load. */
export async function registerPages(_app: FastifyInstance, _services: Services): Promise<void> {}
