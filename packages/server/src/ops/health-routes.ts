import type { FastifyInstance } from "fastify";
import type { Services } from "../services.js";

/** `/healthz`: the process is up. `/readyz`: it can serve, i.e. its database answers. */
export function registerHealthRoutes(app: FastifyInstance, { database }: Services): void {
  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true } }, async (_request, reply) => {
    const ready = await database.ping();
    return reply.code(ready ? 200 : 503).send({ status: ready ? "ready" : "database unreachable" });
  });
}
