import type { Kysely, Transaction } from "kysely";
import { type Database, lazyPostgres, sqliteConnections } from "./database.js";
import type { Schema } from "./schema.js";

/**
 * Runs `work` in a transaction whose commit does not wait for the disk: SQLite's `synchronous = NORMAL` for that
 * one transaction (the connection's default is FULL), PostgreSQL's `synchronous_commit = off`.
 *
 * For bookkeeping that is safe to lose: a power failure (never a process crash) may undo the last such commits,
 * always whole and in order, and never one that a durable commit followed, since the durable commit syncs the log
 * up to itself. Settlements and webhook deliveries qualify: undone, the job runs again, and its handlers are
 * idempotent. What a client was told is stored must be made durable first (`Database.syncLog`). On SQLite a
 * commit that waits for the disk blocks the event loop for milliseconds, so this is what lets one process settle
 * hundreds of orders a second.
 */
export function commitLazily<T>(
  database: Pick<Database, "db" | "dialect">,
  work: (trx: Transaction<Schema>) => Promise<T>,
): Promise<T> {
  return lazily(database, work, (db) => db.transaction().execute(work));
}

/**
 * Runs `work`'s statements lazily as {@link commitLazily} does, but each committed on its own: for the job queue's
 * one-statement writes (claims, settlements, leases), which so never hold SQLite's write lock across an `await`.
 */
export function writeLazily<T>(
  database: Pick<Database, "db" | "dialect">,
  work: (db: Kysely<Schema>) => Promise<T>,
): Promise<T> {
  return lazily(database, work, work);
}

/**
 * `inTransaction` on PostgreSQL, where the setting needs a transaction of its own (so the work runs in one either
 * way), begun with the setting (`LazyCommitPostgresDialect`); `onSqlite` on a SQLite connection set to commit
 * lazily.
 */
async function lazily<T>(
  { db, dialect }: Pick<Database, "db" | "dialect">,
  inTransaction: (trx: Transaction<Schema>) => Promise<T>,
  onSqlite: (db: Kysely<Schema>) => Promise<T>,
): Promise<T> {
  if (dialect === "postgres") {
    const lazy = lazyPostgres.get(db);
    if (!lazy) throw new Error("a lazy commit needs a PostgreSQL database opened by openDatabase");
    return lazy.transaction().execute(inTransaction);
  }
  // Another connection may hold SQLite's one write lock: the statements wait for it on timers, the event loop free
  // meanwhile (see `patient-sqlite-dialect.ts`).
  return onLazyConnection(db, onSqlite);
}

function onLazyConnection<T>(db: Kysely<Schema>, work: (db: Kysely<Schema>) => Promise<T>): Promise<T> {
  // The pragmas belong to the connection: holding it for the whole work keeps anyone else's commit from running
  // under the relaxed settings. They go straight to the driver (see `sqliteConnections`).
  const raw = sqliteConnections.get(db);
  if (!raw) throw new Error("a lazy commit needs a SQLite database opened by openDatabase");
  return db.connection().execute(async (connection: Kysely<Schema>) => {
    raw.exec("pragma synchronous = normal");
    try {
      return await work(connection);
    } finally {
      raw.exec("pragma synchronous = full");
    }
  });
}
