import type SQLite from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** Statements kept prepared: every query the service runs, with room for the `in (…)` lists of imports. */
const STATEMENT_CACHE_SIZE = 1000;

/** A statement after which a kept statement's columns may be others: `select *` takes the table's new columns. */
const SCHEMA_CHANGE = /^\s*(alter|create|drop)\b/i;

/**
 * The connection as Kysely's SQLite dialect uses it, with its statements kept prepared by SQL text: Kysely
 * prepares every query it runs, which cost more than running most of them. A statement still being iterated is
 * never handed out twice. Transactions begin immediate. Rows come as objects built here ({@link KeptStatement}).
 */
export function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, KeptStatement>();
  return {
    close: () => connection.close(),
    prepare(sqlText: string) {
      // Every transaction takes the write lock as it begins, waiting its turn there: a deferred one that reads
      // and then writes fails at once (SQLITE_BUSY, no waiting) when another connection — an order thread, a
      // worker process — holds the lock at that moment. Kysely begins every transaction with a plain `begin`.
      const text = sqlText === "begin" ? "begin immediate" : sqlText;
      const cached = cache.get(text);
      if (cached && !cached.busy) return cached;
      const statement = new KeptStatement(connection.prepare(text));
      if (SCHEMA_CHANGE.test(text)) cache.clear();
      else {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * A prepared statement whose rows are read as arrays and made into objects here, all of one shape. better-sqlite3
 * makes each row's object itself through V8's API, every column's name made again from its bytes and looked up in
 * V8's table of strings at every row: a row of a parcel's seven columns took 6.2 µs that way, 3.3–4.0 µs read as an
 * array and made into an object here.
 */
class KeptStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: SQLite.Statement;
  /** The names of the rows' columns, read from the statement at its first row. */
  #names: string[] = [];

  constructor(statement: SQLite.Statement) {
    this.#statement = statement;
    this.reader = statement.reader;
    if (this.reader) statement.raw(true);
  }

  get busy(): boolean {
    return this.#statement.busy;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    const rows = this.#statement.all(parameters) as unknown[][];
    const objects = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) objects[i] = this.#object(rows[i] as unknown[]);
    return objects;
  }

  run(parameters: ReadonlyArray<unknown>): SQLite.RunResult {
    return this.#statement.run(parameters);
  }

  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    for (const row of this.#statement.iterate(parameters)) yield this.#object(row as unknown[]);
  }

  #object(row: unknown[]): Record<string, unknown> {
    // SQLite prepares a statement again after the schema changed, and then it may have more or fewer columns.
    if (row.length !== this.#names.length) this.#names = this.#statement.columns().map((column) => column.name);
    const names = this.#names;
    const object: Record<string, unknown> = {};
    for (let i = 0; i < row.length; i++) object[names[i] as string] = row[i];
    return object;
  }
}
