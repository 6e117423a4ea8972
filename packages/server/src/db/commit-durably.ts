import type { Transaction } from "kysely";
import { commitLazily } from "./commit-lazily.js";
import type { Database } from "./database.js";
import type { Schema } from "./schema.js";

/**
 * Runs `work` in a transaction and resolves once its commit is on the disk, as an ordinary commit does, but
 * without holding the event loop or the connection while the disk flushes: on SQLite the commit is lazy and then
 * waits for the grouped log sync (so concurrent requests share one flush); on PostgreSQL it is an ordinary commit,
 * which the server groups itself. For the hot paths that answer a client (placing orders and batches).
 */
export async function commitDurably<T>(
  database: Pick<Database, "db" | "dialect" | "syncLog">,
  work: (trx: Transaction<Schema>) => Promise<T>,
): Promise<T> {
  if (database.dialect === "postgres") return database.db.transaction().execute(work);
  const result = await commitLazily(database, work);
  await database.syncLog();
  return result;
}
