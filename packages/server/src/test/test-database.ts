import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { inject } from "vitest";
import { type Database, openDatabase } from "../db/database.js";
import { migrateToLatest } from "../db/migrate.js";

export const TEST_DIALECT = process.env.LOTLINE_TEST_DB === "postgres" ? "postgres" : "sqlite";

export interface TestDatabase {
  /** What `LOTLINE_DATABASE_URL` would say to reach this database (PostgreSQL: with its schema in `options`). */
  url: string;
  database: Database;
  /** Closes and deletes the database. */
  destroy(): Promise<void>;
}

/**
 * A new, empty, migrated database on the dialect of the current test project: a SQLite file in a temporary
 * folder, or a schema of its own in the run's PostgreSQL database.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const test = TEST_DIALECT === "postgres" ? await postgresSchema() : sqliteFile();
  await migrateToLatest(test.database);
  return test;
}

function sqliteFile(): TestDatabase {
  const folder = mkdtempSync(join(tmpdir(), "lotline-test-"));
  const url = `sqlite:${join(folder, "lotline.db")}`;
  const database = openDatabase(url);
  return {
    url,
    database,
    async destroy() {
      await database.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function postgresSchema(): Promise<TestDatabase> {
  const runUrl = inject("postgresUrl");
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = openDatabase(runUrl);
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  const url = new URL(runUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  const database = openDatabase(runUrl, { searchPath: schema });
  return {
    url: url.href,
    database,
    async destroy() {
      await database.close();
      const cleanup = openDatabase(runUrl);
      await sql`drop schema ${sql.id(schema)} cascade`.execute(cleanup.db);
      await cleanup.close();
    },
  };
}
