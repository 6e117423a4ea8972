import { loadConfig } from "../../config/config.js";
import { openDatabase } from "../../db/database.js";
import { migrateToLatest } from "../../db/migrate.js";
import type { CliIo } from "../io.js";

/** `lotline migrate`: brings the configured database's schema up to date and says what ran. */
export async function migrate(io: CliIo): Promise<void> {
  const database = openDatabase(loadConfig(io.env).databaseUrl);
  try {
    const applied = await migrateToLatest(database);
    io.stdout(applied.length ? `Applied ${applied.join(", ")}.\n` : "The schema is up to date.\n");
  } finally {
    await database.close();
  }
}
