import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import type { Schema } from "./schema.js";

export type Dialect = "sqlite" | "postgres";

export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: Dialect;
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
  const db = url.startsWith("sqlite:") ? openSqlite(url.slice("sqlite:".length)) : openPostgres(url, options);
  const dialect: Dialect = url.startsWith("sqlite:") ? "sqlite" : "postgres";
  return {
    db,
    dialect,
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.destroy(),
  };
}

function openSqlite(path: string): Kysely<Schema> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const connection = new SQLite(path);
  // WAL lets readers run beside the one writer; FULL makes every commit durable across power loss.
  connection.pragma("journal_mode = WAL");
  connection.pragma("synchronous = FULL");
  connection.pragma("foreign_keys = ON");
  connection.pragma("busy_timeout = 5000");
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database: connection }) });
}

const INT8_OID = 20;

function openPostgres(url: string, { searchPath }: OpenOptions): Kysely<Schema> {
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
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
}
