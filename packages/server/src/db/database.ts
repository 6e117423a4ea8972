import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, sql } from "kysely";
import type pg from "pg";
import { LazyCommitPostgresDialect } from "./lazy-commit-postgres-dialect.js";
import { PatientSqliteDialect } from "./patient-sqlite-dialect.js";
import { keepStatementsPrepared } from "./prepared-statements.js";
import type { Schema } from "./schema.js";
import { withStatementCache } from "./sqlite-statements.js";
import { WalSync } from "./wal-sync.js";

export type Dialect = "sqlite" | "postgres";

export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: Dialect;
  /**
   * Resolves once every commit so far is on the disk: after {@link commitLazily}, before telling a client that
   * what it sent is stored. Grouped on SQLite (see `WalSync`); at once on PostgreSQL, whose ordinary commits wait
   * for their log themselves.
   */
  syncLog(): Promise<void>;
  /**
   * SQLite: copies the write-ahead log back into the database and empties it, after a write of hundreds of
   * megabytes (an import). Otherwise the log keeps that size on disk for as long as any connection stays open, and
   * a running server keeps one open for good. Waits for readers up to the busy timeout; when they keep the log busy,
   * it shrinks at a later checkpoint instead (see `journal_size_limit`). Nothing to do on PostgreSQL.
   */
  shrinkLog(): Promise<void>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL only: the schema to work in, e.g. a throwaway one per test file. */
  searchPath?: string;
}

/** Opens `sqlite:PATH` (or `sqlite::memory:`) or `postgres://…`. */
export function openDatabase(url: string, options: OpenOptions = {}): Database {
  const sqlitePath = url.startsWith("sqlite:") ? url.slice("sqlite:".length) : undefined;
  const db = sqlitePath !== undefined ? openSqlite(sqlitePath) : openPostgres(url, options);
  const dialect: Dialect = sqlitePath !== undefined ? "sqlite" : "postgres";
  const wal = sqlitePath !== undefined && sqlitePath !== ":memory:" ? new WalSync(sqlitePath) : undefined;
  return {
    db,
    dialect,
    syncLog: () => wal?.sync() ?? Promise.resolve(),
    async shrinkLog() {
      const raw = sqliteConnections.get(db);
      if (!wal || !raw) return;
      // The one statement that waits in SQLite's busy handler (for readers to leave the log): it ends a command,
      // whose event loop has nothing else to do.
      raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
      try {
        raw.pragma("wal_checkpoint(truncate)");
      } finally {
        raw.pragma("busy_timeout = 0");
      }
    },
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await wal?.close();
      await db.destroy();
    },
  };
}

/** The size, bytes, a SQLite write-ahead log is cut back to when it starts over: some 16,000 pages. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** How long a SQLite statement waits for another connection's write lock (see `patient-sqlite-dialect.ts`). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

function openSqlite(path: string): Kysely<Schema> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const connection = new SQLite(path);
  // WAL lets readers run beside the one writer; FULL makes every commit durable across power loss.
  connection.pragma("journal_mode = WAL");
  connection.pragma("synchronous = FULL");
  connection.pragma("foreign_keys = ON");
  // SQLite's busy handler would sleep on the event loop: statements wait on timers instead (PatientSqliteDialect).
  connection.pragma("busy_timeout = 0");
  // A log grown by a large transaction goes back to this size when it next starts over, rather than keeping its size.
  connection.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const dialect = new PatientSqliteDialect({ database: withStatementCache(connection) }, SQLITE_BUSY_TIMEOUT_MS);
  const db = new Kysely<Schema>({ dialect });
  sqliteConnections.set(db, connection);
  return db;
}

/**
 * The better-sqlite3 connection under each SQLite Kysely instance, for the settings a lazy commit switches
 * around its work (`commit-lazily.ts`): through the driver itself they take microseconds, through Kysely tens
 * of them, and a settled order switches them four times.
 */
export const sqliteConnections: WeakMap<Kysely<Schema>, SQLite.Database> = new WeakMap();

/**
 * For each PostgreSQL Kysely instance, one over the same pool whose transactions begin with the setting of a lazy
 * commit (`LazyCommitPostgresDialect`), for `commit-lazily.ts`.
 */
export const lazyPostgres: WeakMap<Kysely<Schema>, Kysely<Schema>> = new WeakMap();

const INT8_OID = 20;

/**
 * The PostgreSQL client, loaded when a PostgreSQL database is first opened: a command on SQLite (an import of a
 * few features, the demo) starts some 30 ms sooner without it. It is CommonJS, so it loads synchronously.
 */
let pgModule: typeof pg | undefined;
function postgresClient(): typeof pg {
  pgModule ??= createRequire(import.meta.url)("pg") as typeof pg;
  return pgModule;
}

function openPostgres(url: string, { searchPath }: OpenOptions): Kysely<Schema> {
  const pg = postgresClient();
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Epoch-millisecond columns are bigint; they fit a JavaScript number for the next 285,000 years.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
    ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
  });
  pool.on("connect", keepStatementsPrepared);
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  lazyPostgres.set(db, new Kysely<Schema>({ dialect: new LazyCommitPostgresDialect({ pool }) }));
  return db;
}
