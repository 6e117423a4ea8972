import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * `GET /metrics` in the Prometheus text format: the process's default metrics and a request-duration histogram
 * by method, route template (never the raw URL, which would hold ids and tokens) and status.
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route and status",
    labelNames: ["method", "route", "status_code"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.addHook("onResponse", async (request, reply) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? "unmatched", status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
  });

  app.get("/metrics", { schema: { hide: true } }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
}
