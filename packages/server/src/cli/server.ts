import type { Server } from "node:http";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { buildApp, serverLogger } from "../app.js";
import type { Config, ManagementListener } from "../config/config.js";
import { publicConfigurationOf, samePublicConfiguration } from "../config/public-configuration.js";
import { recordPublicConfiguration } from "../config/recorded-public-configuration.js";
import { openDatabase } from "../db/database.js";
import { migrateToLatest } from "../db/migrate.js";
import { buildManagementApp, managementLogLevel } from "../ops/management-app.js";
import { ServiceMetrics } from "../ops/metrics.js";
import { createServices, type Services } from "../services.js";
import { createJobRunner } from "../workers/background-work.js";
import { OrderThreads } from "../workers/order-threads.js";
import type { Role } from "./roles.js";

export { ROLES, type Role } from "./roles.js";

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  /** The management listener's base URL (`/metrics`); undefined when its default port was taken. */
  managementUrl: string | undefined;
  /**
   * Stops taking requests, lets the ones in flight finish (cutting what is still open at the shutdown deadline),
   * then finishes the jobs in hand and closes the database.
   */
  stop(): Promise<void>;
}

/**
 * Migrates, builds the services and listens. `api` and `all` serve the interface; `worker` and `all` run the
 * background jobs — order processing and webhook delivery; every role serves its health, and its metrics on the
 * management listener. A process serving the interface records its public configuration for the CLI.
 */
export async function startServer(config: Config, role: Role = "all"): Promise<RunningServer> {
  const database = openDatabase(config.databaseUrl);
  // Stops whatever has started so far; replaced as more starts, and used as well if a later step fails.
  let stop = () => database.close();
  try {
    await migrateToLatest(database);
    const services = await createServices(config, database);
    await services.keys.signingKey(); // A new deployment gets its first key now, not on its first token request.
    const metrics = new ServiceMetrics();
    const app = await buildApp(services, {
      logger: serverLogger(config.logLevel),
      serveInterface: role !== "worker",
      metrics,
    });
    const management = buildManagementApp(services, metrics, {
      logger: serverLogger(managementLogLevel(config.logLevel)),
    });
    app.log.info({ role, database: services.database.dialect }, "starting");
    if (config.trustProxy === true) {
      app.log.warn(
        "LOTLINE_TRUST_PROXY=true believes X-Forwarded-For from any peer: a client reaching the service directly " +
          "chooses the address its failed sign-ins are counted against. Name your proxies' addresses instead",
      );
    }
    const runsJobs = role !== "api";
    const threaded = runsJobs && config.orderThreads > 0;
    const runner = runsJobs ? createJobRunner(services, app.log, { withOrders: !threaded }) : undefined;
    const threads =
      threaded && runner
        ? new OrderThreads(config.databaseUrl, config.orderThreads, app.log, () => runner.nudge())
        : undefined;
    stop = async () => {
      await closeWithin([app, management], config.shutdownTimeoutSeconds * 1000, app.log);
      await Promise.all([runner?.stop(), threads?.stop()]);
      await database.close();
    };
    if (runner) {
      services.nudgeWorkers = () => {
        runner.nudge();
        threads?.nudge();
      };
      runner.start();
    }
    // Before listening, so whoever sees the service answer (a script polling /healthz) also finds its record. A
    // start that then fails to listen leaves its values recorded until the next start; in the usual mistake, the
    // port taken by this very deployment's service, they are that service's values anyway.
    if (role !== "worker") await recordForTheCli(services, app.log);
    await app.listen({ port: config.port, host: config.host });
    const managementUrl = await listenForManagement(management, config.management, app.log);
    return { app, services, url: listeningUrl(app, config.host, config.port), managementUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Closes the listeners: new requests get 503 while those in flight finish, but only until `deadlineMs`. A request
 * still open then (a client that sent half its headers, an upload crawling in) would hold the stop until Node's own
 * timeouts, a minute for headers and five for a body, past any orchestrator's patience, which ends in a kill with
 * the jobs in hand cut too. Its connection is cut instead, and the log says how many were.
 */
async function closeWithin(apps: FastifyInstance[], deadlineMs: number, log: FastifyBaseLogger): Promise<void> {
  const cut = setTimeout(async () => {
    const open = await Promise.all(apps.map((app) => openConnections(app.server)));
    log.warn(
      { connections: open.reduce((sum, count) => sum + count, 0), shutdown_timeout_s: deadlineMs / 1000 },
      "requests still open at the shutdown deadline: closing their connections",
    );
    for (const app of apps) app.server.closeAllConnections();
  }, deadlineMs);
  try {
    await Promise.all(apps.map((app) => app.close()));
  } finally {
    clearTimeout(cut);
  }
}

function openConnections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}

/**
 * Starts the management listener. A port the operator chose must be had; the default one (the service's + 1000)
 * may be taken by anything else on the machine, and metrics are not worth refusing service for: the process then
 * serves without them and says so.
 */
async function listenForManagement(
  management: FastifyInstance,
  { host, port, required }: ManagementListener,
  log: FastifyBaseLogger,
): Promise<string | undefined> {
  try {
    await management.listen({ host, port });
  } catch (error) {
    if (required) throw error;
    log.error(
      { err: error, host, port },
      "no management listener (/metrics): its default port is taken; set LOTLINE_MANAGEMENT_PORT",
    );
    return undefined;
  }
  const url = listeningUrl(management, host, port);
  log.info({ url }, "management listener (/metrics)");
  return url;
}

/** The base URL `app` listens at, with the port actually bound (`port` 0 takes any free one). */
function listeningUrl(app: FastifyInstance, host: string, port: number): string {
  const address = app.server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
}

/**
 * Records where this service is reached and the audience it accepts, so that `lotline client create` and
 * `iframe-key create`, run from another shell with another environment, print this service's values rather than
 * their own defaults. A worker answers no token request, so it records nothing. Processes sharing a database
 * should agree; when this one replaces a different record, either the deployment was reconfigured (fine) or
 * another process still serves with the old values (not fine: a load balancer would mix two issuers and two
 * audiences), and only the operator can tell which, so it warns.
 */
async function recordForTheCli(services: Services, log: FastifyBaseLogger): Promise<void> {
  const current = publicConfigurationOf(services.config);
  const previous = await recordPublicConfiguration(services.db, current);
  if (!previous || samePublicConfiguration(previous, current)) return;
  log.warn(
    {
      previous: {
        public_url: previous.publicUrl,
        api_audience: previous.apiAudience,
        // How long ago tells a live neighbour from an old run of this same deployment.
        recorded_at: new Date(previous.recordedAt).toISOString(),
      },
      current: { public_url: current.publicUrl, api_audience: current.apiAudience },
    },
    "the public URL or API audience differs from that of the service last started on this database; the CLI now " +
      "prints this service's. If that service still runs, give every process the same LOTLINE_PUBLIC_URL and " +
      "LOTLINE_API_AUDIENCE: they refuse each other's tokens and audiences",
  );
}

/** Stops gracefully on SIGTERM or SIGINT: in-flight requests finish, new ones get 503, then the process exits. */
export function stopOnSignals(server: RunningServer): void {
  const stop = (signal: string) => {
    server.app.log.info({ signal }, "shutting down");
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
