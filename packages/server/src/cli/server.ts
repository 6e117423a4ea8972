import type { FastifyInstance } from "fastify";
import { buildApp, serverLogger } from "../app.js";
import type { Config } from "../config/config.js";
import { openDatabase } from "../db/database.js";
import { migrateToLatest } from "../db/migrate.js";
import { createServices, type Services } from "../services.js";
import { createJobRunner } from "../workers/background-work.js";

export const ROLES = ["all", "api", "worker"] as const;
export type Role = (typeof ROLES)[number];

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  /** Stops taking requests, lets the ones in flight finish, then closes the database. */
  stop(): Promise<void>;
}

/**
 * Migrates, builds the services and listens. `api` and `all` serve the interface; `worker` and `all` run the
 * background jobs — order processing and webhook delivery; every role serves its health and metrics.
 */
export async function startServer(config: Config, role: Role = "all"): Promise<RunningServer> {
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    const services = await createServices(config, database);
    await services.keys.signingKey(); // A new deployment gets its first key now, not on its first token request.
    const app = await buildApp(services, { logger: serverLogger(config.logLevel), serveInterface: role !== "worker" });
    app.log.info({ role, database: services.database.dialect }, "starting");
    const runner = role === "api" ? undefined : createJobRunner(services, app.log);
    if (runner) {
      services.nudgeWorkers = () => runner.nudge();
      runner.start();
    }
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    return {
      app,
      services,
      url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
      async stop() {
        await app.close();
        await runner?.stop();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
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
