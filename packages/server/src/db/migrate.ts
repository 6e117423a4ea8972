import { type Migration, type MigrationProvider, Migrator } from "kysely";
import type { Database } from "./database.js";
import * as foundation from "./migrations/0001-foundation.js";

/** Every migration, in order. Names sort in the order they must run; never rename or edit a released one. */
const MIGRATIONS: Record<string, Migration> = {
  "0001-foundation": foundation,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export class MigrationError extends Error {
  override name = "MigrationError";
}

/** Brings the schema up to date; safe to run from several processes at once (the migrator takes a lock). */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new MigrationError(`migration ${failed?.migrationName ?? "(setup)"} failed: ${reason}`);
  }
  return results.filter((result) => result.status === "Success").map((result) => result.migrationName);
}
