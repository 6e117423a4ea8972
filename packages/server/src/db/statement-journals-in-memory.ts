import type { Transaction } from "kysely";
import { type Database, sqliteConnections } from "./database.js";
import type { Schema } from "./schema.js";

/**
 * Runs `work` in a transaction whose statement journals are kept in memory (SQLite; PostgreSQL runs it in a plain
 * transaction).
 *
 * Why: a statement that writes several rows and may fail on a row after the first (a unique key, a foreign key)
 * first copies every page it is about to change into a statement journal, so that it can undo its own part alone.
 * SQLite keeps that journal in a temporary file: a write and a copy of 4 KB per page. An import's 50-row inserts
 * pay it on every statement: a building's source id falls anywhere in the table's unique index, so each row changes
 * a page of its own there; an address's row is appended, but its foreign keys still ask for the journal. Kept in
 * memory, 1.06 M building rows inserted in 7.1 / 8.0 s against 10.9 / 10.5 s, and 2.1 M address rows in 9.3 / 9.5
 * against 11.9 / 11.9 s.
 *
 * SQLite decides where a transaction's statement journals go as the transaction begins (`temp_store`): the setting
 * is switched to memory for the begin only, on the held connection, and back at once. Sorts and temporary tables,
 * which it decides statement by statement, keep going to files: in memory the index an address import builds at its
 * end took 120 MB more.
 *
 * Only for a transaction whose statements each change a bounded number of pages that were there before it began: a
 * statement's journal holds every such page it changes until it ends. A process deleting a dataset of a million
 * buildings in one statement peaked at 385 MB so, against 89 MB with the journal in a file.
 */
export async function inTransactionWithStatementJournalsInMemory<T>(
  database: Database,
  work: (trx: Transaction<Schema>) => Promise<T>,
): Promise<T> {
  const raw = database.dialect === "sqlite" ? sqliteConnections.get(database.db) : undefined;
  if (!raw) return database.db.transaction().execute(work);
  // Held, so that the transaction begins on the connection whose setting was switched (as `commit-lazily.ts` holds it).
  return database.db.connection().execute(async (connection) => {
    const before = raw.pragma("temp_store", { simple: true }) as number;
    const restore = () => raw.pragma(`temp_store = ${before}`);
    // Switched outside a transaction, which also closes the connection's temporary database: the switch back,
    // inside the transaction, is then allowed.
    raw.pragma("temp_store = memory");
    try {
      return await connection.transaction().execute(async (trx) => {
        restore();
        return work(trx);
      });
    } finally {
      restore();
    }
  });
}
