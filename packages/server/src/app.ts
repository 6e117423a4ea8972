import formBody from "@fastify/formbody";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { registerApiRoutes } from "./api/api-routes.js";
import { registerOpenApi } from "./api/openapi.js";
import { registerReferencePage } from "./api/reference-page.js";
import { installStrictInput } from "./api/strict-input/strict-input.js";
import { warnOfUntrustedForwarding } from "./auth/limits/untrusted-forwarding-warning.js";
import { registerMetadataRoutes } from "./auth/oauth/metadata-routes.js";
import { registerTokenRoute } from "./auth/oauth/token-route.js";
import { registerSigninRoute } from "./auth/signin/signin-route.js";
import { holdGeometryPool } from "./compute/geometry-pool.js";
import { answerClientError } from "./http/answer-client-error.js";
import { answerFrameworkError, installErrorHandler } from "./http/error-handler.js";
import { installSecurityHeaders } from "./http/security-headers.js";
import { redactCredentials } from "./http/url-credentials.js";
import { registerHealthRoutes } from "./ops/health-routes.js";
import type { ServiceMetrics } from "./ops/metrics.js";
import { registerPageApi } from "./page-api/page-api-routes.js";
import { registerPages } from "./pages/page-routes.js";
import type { Services } from "./services.js";

export interface AppOptions {
  /** Pino logger options, or false for none (tests). */
  logger?: FastifyServerOptions["logger"];
  /** Whether to serve the interface; a worker process serves its health only. */
  serveInterface?: boolean;
  /** Where to count this app's requests; `lotline serve` shows them on its management listener, never here. */
  metrics?: ServiceMetrics;
}

/** The HTTP application: every role of DESIGN.md §1 on one origin. */
export async function buildApp(
  services: Services,
  { logger = false, serveInterface = true, metrics }: AppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: services.config.trustProxy,
    // Request ids let an operator follow one request through the logs; clients may pass their own.
    requestIdHeader: "x-request-id",
    // What Fastify refuses before a route is chosen, or Node before a request is read, is answered in our words too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // A misspelt field is an error the client should hear about, not something to drop silently; a value of the
    // wrong type likewise (no `"42"` for 42, no `true` for 1): parameters are parsed strictly by installStrictInput.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });
  installErrorHandler(app);
  // The geometry workers (compute/) are shared by the process's applications; the last to close ends them.
  const releaseGeometryPool = holdGeometryPool();
  app.addHook("onClose", releaseGeometryPool);
  installStrictInput(app);
  await app.register(formBody);
  installSecurityHeaders(app, services.config);
  warnOfUntrustedForwarding(app, services.config);
  metrics?.observe(app);
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

/**
 * Pino options for `lotline serve`: the configured level, and URLs logged without the values of `jwt` and every
 * other credential parameter, matched by decoded name (`%6Awt` is `jwt` to the router, so it is to the log too).
 */
export function serverLogger(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    serializers: {
      req: (request) => ({
        method: request.method,
        url: redactCredentials(String(request.url)),
        remoteAddress: request.ip,
      }),
    },
  };
}
