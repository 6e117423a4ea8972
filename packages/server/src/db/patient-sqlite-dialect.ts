import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
} from "kysely";
import { DatabaseBusyError } from "./database-busy-error.js";

/**
 * Kysely's SQLite dialect, but a statement that finds the write lock held by another connection (an import in
 * another process holds it for its whole transaction, minutes at a state's size; a worker process for a commit's
 * milliseconds) waits for it on timers, not in SQLite's busy handler: better-sqlite3 is synchronous, so that
 * handler sleeps on the event loop, and a service did nothing else, `/healthz` included, for the whole wait.
 *
 * The connection's busy timeout is 0, so SQLite fails the statement at once, having changed nothing, and it is run
 * again after a short timer. Kysely's one SQLite connection is held meanwhile, as it is for any statement, so
 * `waitMs` counts from when the connection was asked for: a request queued behind a waiting one waits no longer in
 * all. Past it the statement fails with {@link DatabaseBusyError}, a 503 with Retry-After to a client.
 */
export class PatientSqliteDialect extends SqliteDialect {
  readonly #waitMs: number;

  constructor(config: SqliteDialectConfig, waitMs: number) {
    super(config);
    this.#waitMs = waitMs;
  }

  override createDriver(): Driver {
    return new PatientDriver(super.createDriver(), this.#waitMs);
  }
}

class PatientDriver implements Driver {
  /** When the connection's present holder asked for it. */
  #askedAt = 0;
  /** The one connection of Kysely's SQLite driver, waiting on timers; made when first acquired. */
  #patient: DatabaseConnection | undefined;

  constructor(
    private readonly inner: Driver,
    private readonly waitMs: number,
  ) {}

  init = () => this.inner.init();
  destroy = () => this.inner.destroy();
  releaseConnection = () => this.inner.releaseConnection(this.#patient as DatabaseConnection);
  // Kysely's driver sends `begin`, `commit` and `rollback` through the connection it is given: the patient one.
  beginTransaction: Driver["beginTransaction"] = (connection, settings) =>
    this.inner.beginTransaction(connection, settings);
  commitTransaction: Driver["commitTransaction"] = (connection) => this.inner.commitTransaction(connection);
  rollbackTransaction: Driver["rollbackTransaction"] = (connection) => this.inner.rollbackTransaction(connection);

  async acquireConnection(): Promise<DatabaseConnection> {
    const askedAt = Date.now();
    const connection = await this.inner.acquireConnection();
    this.#askedAt = askedAt;
    this.#patient ??= this.#waitingOn(connection);
    return this.#patient;
  }

  #waitingOn(inner: DatabaseConnection): DatabaseConnection {
    const deadline = () => this.#askedAt + this.waitMs;
    return {
      streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        for (let attempt = 1; ; attempt++) {
          try {
            return await inner.executeQuery<R>(query);
          } catch (error) {
            if (!isBusy(error)) throw error;
            if (Date.now() >= deadline()) throw new DatabaseBusyError(error);
            await new Promise((resolve) => setTimeout(resolve, Math.min(50, attempt) * (0.5 + Math.random())));
          }
        }
      },
    };
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
