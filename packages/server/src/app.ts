import formBody from "@fastify/formbody";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { registerApiRoutes } from "./api/api-routes.js";
import { registerOpenApi } from "./api/openapi.js";
import { registerReferencePage } from "./api/reference-page.js";
import { registerMetadataRoutes } from "./auth/oauth/metadata-routes.js";
import { registerTokenRoute } from "./auth/oauth/token-route.js";
import { registerSigninRoute } from "./auth/signin/signin-route.js";
import { installErrorHandler } from "./http/error-handler.js";
import { registerHealthRoutes } from "./ops/health-routes.js";
import { registerMetrics } from "./ops/metrics.js";
import { registerPageApi } from "./page-api/page-api-routes.js";
import { registerPages } from "./pages/page-routes.js";
import type { Services } from "./services.js";

export interface AppOptions {
  /** Pino logger options, or false for none (tests). */
  logger?: FastifyServerOptions["logger"];
  /** Whether to serve the interface; a worker process serves its health and metrics only. */
  serveInterface?: boolean;
}

/** The HTTP application: every role of DESIGN.md §1 on one origin. */
export async function buildApp(
  services: Services,
  { logger = false, serveInterface = true }: AppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: services.config.trustProxy,
    // Request ids let an operator follow one request through the logs; clients may pass their own.
    requestIdHeader: "x-request-id",
    // A misspelt field is an error the client should hear about, not something to drop silently.
    ajv: { customOptions: { removeAdditional: false } },
  });
  installErrorHandler(app);
  await app.register(formBody);
  registerMetrics(app);
  registerHealthRoutes(app, services);
  if (!serveInterface) return app;
  await registerOpenApi(app, services.config);
  registerMetadataRoutes(app, services);
  registerTokenRoute(app, services);
  registerSigninRoute(app, services);
  await registerApiRoutes(app, services);
  await registerPageApi(app, services);
  await registerPages(app, services);
  registerReferencePage(app);
  return app;
}

/** Pino options for `lotline serve`: the configured level, and URLs logged without their `jwt` query value. */
export function serverLogger(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    serializers: {
      req: (request) => ({
        method: request.method,
        url: String(request.url).replace(/([?&]jwt=)[^&]*/g, "$1[redacted]"),
        remoteAddress: request.ip,
      }),
    },
  };
}
