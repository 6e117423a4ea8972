import { type Config, loadConfig, type Settings } from "../config/config.js";
import { openDatabase } from "../db/database.js";
import { migrateToLatest } from "../db/migrate.js";
import { createServices, type Services } from "../services.js";

/**
 * Opens the configured database, brings its schema up to date and builds the services, runs `work`, and closes
 * the database whatever happens.
 */
export async function withServices<T>(
  env: Settings,
  work: (services: Services) => Promise<T>,
  overrides: Settings = {},
): Promise<T> {
  const config: Config = loadConfig(env, overrides);
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    return await work(await createServices(config, database));
  } finally {
    await database.close();
  }
}
