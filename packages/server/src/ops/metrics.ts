import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics: its default metrics and a request-duration histogram by method, route template
 * (never the raw URL, which would hold ids and tokens) and status. Served by the management listener only.
 */
export class ServiceMetrics {
  readonly #registry = new Registry();
  readonly #duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route and status",
    labelNames: ["method", "route", "status_code"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.#registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.#registry });
  }

  /** Times every request `app` answers. */
  observe(app: FastifyInstance): void {
    app.addHook("onResponse", async (request, reply) => {
      this.#duration.observe(
        { method: request.method, route: request.routeOptions.url ?? "unmatched", status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    });
  }

  get contentType(): string {
    return this.#registry.contentType;
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.#registry.metrics();
  }
}
