import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { installErrorHandler } from "../http/error-handler.js";
import { installSecurityHeaders } from "../http/security-headers.js";
import type { Services } from "../services.js";
import { registerHealthRoutes } from "./health-routes.js";
import type { ServiceMetrics } from "./metrics.js";

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/** The management listener logs failures only: a scrape every few seconds is no news. */
export function managementLogLevel(level: string): string {
  return LEVELS.indexOf(level) < LEVELS.indexOf("warn") ? "warn" : level;
}

/**
 * The management listener's application (LOTLINE_MANAGEMENT_HOST/PORT, loopback by default): `/metrics`, which
 * names every route, the Node version and the traffic, so it stays off the service port that the internet reaches;
 * and `/healthz`, `/readyz` as on the service port, for probes that use this port.
 */
export function buildManagementApp(
  services: Services,
  metrics: ServiceMetrics,
  { logger = false }: { logger?: FastifyServerOptions["logger"] } = {},
): FastifyInstance {
  const app = Fastify({ logger });
  installErrorHandler(app);
  installSecurityHeaders(app, services.config);
  registerHealthRoutes(app, services);
  app.get("/metrics", async (_request, reply) => reply.type(metrics.contentType).send(await metrics.text()));
  return app;
}
