import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
} from "kysely";

/**
 * PostgreSQL through the pool of the main dialect, each transaction begun with `synchronous_commit = off` in the
 * message that begins it: a lazy commit (`commit-lazily.ts`) then spends no round trip of its own on the setting.
 * An order's settlement and each job's claim and completion are lazy, so an order on a server across a network
 * waits three round trips less.
 */
export class LazyCommitPostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;

  constructor(config: PostgresDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new LazyCommitPostgresDriver(this.#config);
  }
}

class LazyCommitPostgresDriver extends PostgresDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // Two statements without parameters: one simple-protocol message, one answer.
    await connection.executeQuery(CompiledQuery.raw("begin; set local synchronous_commit = off"));
  }

  /** The pool is the main dialect's to end. */
  override async destroy(): Promise<void> {}
}
