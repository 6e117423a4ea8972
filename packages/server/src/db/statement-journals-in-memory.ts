import type { Kysely } from "kysely";
import { type Database, sqliteConnections } from "./database.js";
import type { Schema } from "./schema.js";

/**
 * Runs `work` on one connection whose temporary files, statement journals among them, are kept in memory (SQLite;
 * PostgreSQL runs it as it is). `work` begins its transaction on the connection it is given.
 *
 * Why: a statement that writes several rows and may fail on a row after the first (a unique key, a foreign key)
 * first copies every page it is about to change into a statement journal, so that it can undo its own part alone.
 * An import's rows have keys all over its table's unique index, so each row changes a page of its own there, and
 * SQLite keeps that journal in a temporary file: a write and a copy of 4 KB per row. Kept in memory, 1.06 M
 * building rows inserted in 7.1 / 8.0 s against 10.9 / 10.5 s, and a building import at 77 tiles took 60.6 / 70.6 s
 * against 68.4 / 74.3 s in turns, at the same peak: a statement's journal holds the pages its 50 rows change, and
 * goes when the statement ends. Parcel and layer imports took the same time either way, and keep the default.
 *
 * Only for work that sorts nothing large: a sort spills to temporary files too, and in memory the index an address
 * import builds at its end took 120 MB more. The setting is changed only outside a transaction, so it holds for
 * the whole of `work`; the connection is held for it (as `commit-lazily.ts` holds it), so nothing else runs with it.
 */
export async function withStatementJournalsInMemory<T>(
  database: Database,
  work: (db: Kysely<Schema>) => Promise<T>,
): Promise<T> {
  const raw = database.dialect === "sqlite" ? sqliteConnections.get(database.db) : undefined;
  if (!raw) return work(database.db);
  return database.db.connection().execute(async (connection: Kysely<Schema>) => {
    const before = raw.pragma("temp_store", { simple: true }) as number;
    raw.pragma("temp_store = memory");
    try {
      return await work(connection);
    } finally {
      raw.pragma(`temp_store = ${before}`);
    }
  });
}
