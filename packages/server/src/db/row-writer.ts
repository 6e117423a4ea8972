import type SQLite from "better-sqlite3";
import { type Insertable, type RawBuilder, sql, type Transaction } from "kysely";
import { type Database, sqliteConnections } from "./database.js";
import { postgresArrayLiteral } from "./postgres-array-literal.js";
import { postgresBinaryArray } from "./postgres-binary-array.js";
import type { Schema } from "./schema.js";

type Table = keyof Schema & string;
type Column<T extends Table> = keyof Schema[T] & string;

/**
 * SQLite: rows written by one statement. A statement per row would cost a statement journal each (the triggers
 * keeping the spatial index, the upserts), more than the insert; a fixed size lets a batch's statements be
 * prepared once per import, with at most this many texts for the last, shorter chunks.
 */
const SQLITE_ROWS_PER_STATEMENT = 50;

/** The key columns of an upsert: a row whose key is stored already has its other columns written over that row's. */
export type UpsertKey<T extends Table> = readonly Column<T>[];

/**
 * Rows of another table that belong to rows being inserted, each naming its parent by the parent's key (a column
 * unique among the rows inserted with it) rather than by the id the parent is yet to be stored under.
 */
export interface ChildRows<C extends Table> {
  table: C;
  /** The column that holds the parent's id: left out of the rows, and filled as they are written. */
  reference: Column<C>;
  rows: Array<{ parent: string; row: Partial<Insertable<Schema[C]>> }>;
}

/** How parent rows are found by their children: the key the children name, and the id they are given. */
export interface ParentColumns<T extends Table> {
  key: Column<T>;
  id: Column<T>;
}

/**
 * Writes an import's rows, a batch at a time, inside its transaction — the hot path of every import, so it leaves
 * the query builder: building and compiling a 500-row insert cost more than SQLite took to store it, and a new
 * statement text per batch size was parsed again each time.
 *
 * - SQLite: statements of {@link SQLITE_ROWS_PER_STATEMENT} rows, prepared once per import and run on the
 *   transaction's own connection.
 * - PostgreSQL: one statement per batch whatever its size, each column sent as one array and spread by `unnest`:
 *   the server parses and plans a short text instead of one with thousands of parameters. A column of bytes or
 *   numbers goes in the server's binary format (`postgresBinaryArray`), one of texts as a literal written by
 *   `postgresArrayLiteral` where it can be. A batch is stored while the import prepares the next
 *   ({@link RowWriter.settle} waits for it).
 */
export class RowWriter {
  readonly #trx: Transaction<Schema>;
  readonly #sqlite: SQLite.Database | undefined;
  readonly #statements = new Map<string, SQLite.Statement>();
  /** PostgreSQL: each table's column types, read from the catalog once. */
  readonly #columnTypes = new Map<string, Promise<Map<string, string>>>();
  /** PostgreSQL: the batch the server is storing while the import goes on, and what failed it, if anything. */
  #writing: Promise<void> = Promise.resolve();
  #failure: { error: unknown } | undefined;

  constructor(database: Database, trx: Transaction<Schema>) {
    this.#trx = trx;
    this.#sqlite = database.dialect === "sqlite" ? sqliteConnections.get(database.db) : undefined;
  }

  /**
   * Inserts `rows` (every one with the same columns) into `table`; with `updateOn`, a row whose key is stored
   * replaces the stored row's other columns instead. On PostgreSQL the rows are stored while the caller goes on:
   * every statement it runs on the transaction afterwards sees them, and {@link settle} says when they are stored.
   */
  async insert<T extends Table>(table: T, rows: Insertable<Schema[T]>[], updateOn?: UpsertKey<T>): Promise<void> {
    const first = rows[0];
    if (first === undefined) return;
    const columns = Object.keys(first);
    const records = rows as Record<string, unknown>[];
    const conflict = updateOn ? conflictClause(columns, updateOn) : "";
    if (this.#sqlite) {
      this.#insertOnSqlite(this.#sqlite, table, columns, records, conflict);
      return;
    }
    // The server stores one batch while this thread goes on to read, check and build the next: waiting for each
    // insert had the import and the server take turns. One batch at a time bounds what is held.
    await this.settle();
    await this.#storeOnPostgres(this.#postgresInsert(table, columns, records, conflict, await this.#typesOf(table)));
  }

  /**
   * Inserts `rows` as {@link insert} does, and `children` with them, each given its parent's id. On PostgreSQL
   * one statement inserts both, the children joined to the ids the parents' insert returns, so that the import
   * goes on while the server stores them; asking for the ids first had the import wait for each batch's parents
   * to be stored. On SQLite the parents' inserts return their ids.
   */
  async insertWithChildren<T extends Table, C extends Table>(
    table: T,
    rows: Insertable<Schema[T]>[],
    parent: ParentColumns<T>,
    children: ChildRows<C>,
    updateOn?: UpsertKey<T>,
  ): Promise<void> {
    const first = rows[0];
    const firstChild = children.rows[0];
    if (first === undefined || firstChild === undefined) return this.insert(table, rows, updateOn);
    const columns = Object.keys(first);
    const records = rows as Record<string, unknown>[];
    const conflict = updateOn ? conflictClause(columns, updateOn) : "";
    if (this.#sqlite) {
      const returning = ` returning ${quoted(parent.id)} as id, ${quoted(parent.key)} as key`;
      const written = this.#insertOnSqlite(this.#sqlite, table, columns, records, conflict + returning);
      const ids = new Map(written.map((row) => [row.key, row.id]));
      const childRecords = children.rows.map(({ parent: key, row }) => ({
        ...row,
        [children.reference]: ids.get(key),
      }));
      const childColumns = [...Object.keys(firstChild.row), children.reference];
      this.#insertOnSqlite(this.#sqlite, children.table, childColumns, childRecords, "");
      return;
    }
    await this.settle();
    const types = await this.#typesOf(table);
    const parents = this.#postgresInsert(table, columns, records, conflict, types);
    await this.#storeOnPostgres(
      await this.#postgresChildInsert(parents, { ...parent, type: typeOf(types, table, parent.key) }, children),
    );
  }

  /**
   * The insert of `parents`, returning their ids, and of the children joined to them by key. The children's ids
   * are drawn in the order they were given, as on SQLite: the join's output has an order of its own.
   */
  async #postgresChildInsert<C extends Table>(
    parents: RawBuilder<unknown>,
    parent: { key: string; id: string; type: string },
    children: ChildRows<C>,
  ) {
    const types = await this.#typesOf(children.table);
    const columns = Object.keys(children.rows[0]?.row ?? {});
    const rows = children.rows.map((child) => child.row as Record<string, unknown>);
    const arrays = [
      this.#postgresArray(
        children.rows.map((child) => child.parent),
        parent.type,
      ),
      ...columns.map((column) =>
        this.#postgresArray(
          rows.map((row) => row[column] ?? null),
          typeOf(types, children.table, column),
        ),
      ),
    ];
    const names = [sql.id("parent_key"), ...columns.map((column) => sql.id(column)), sql.id("position")];
    return sql`with written as (${parents} returning ${sql.ref(parent.id)} as id, ${sql.ref(parent.key)} as key)
      insert into ${sql.table(children.table)} (${sql.join([...columns, children.reference].map((column) => sql.ref(column)))})
      select ${sql.join(columns.map((column) => sql.ref(`child.${column}`)))}, written.id
      from unnest(${sql.join(arrays)}) with ordinality as child (${sql.join(names)})
      join written on written.key = child.parent_key
      order by child.position`;
  }

  /**
   * Hands `statement` to the transaction and returns while the server runs it; its failure is kept for
   * {@link settle}. The transaction runs its statements one at a time, in the order they reach it, and the
   * statement reaches it within this turn's microtasks: returning on the next turn puts whatever the caller runs
   * next after it, so a read that follows sees these rows.
   */
  async #storeOnPostgres(statement: RawBuilder<unknown>): Promise<void> {
    this.#writing = statement.execute(this.#trx).then(
      () => {},
      (error: unknown) => {
        this.#failure = { error };
      },
    );
    await new Promise(setImmediate);
  }

  /**
   * Waits until every row given is stored; throws what failed a write. On PostgreSQL a transaction must settle
   * before it commits: one a failed insert aborted ends by rolling back, and its commit does not fail.
   */
  async settle(): Promise<void> {
    await this.#writing;
    if (this.#failure) throw this.#failure.error;
  }

  /**
   * What failed a write, once the writes in flight are done. A failed insert aborts a PostgreSQL transaction, and
   * the statements after it then fail with "current transaction is aborted": this names the cause instead.
   */
  async failure(): Promise<unknown> {
    await this.#writing;
    return this.#failure?.error;
  }

  /**
   * Each statement's parameters filled straight from the rows, row after row: an array per row, then sliced and
   * flattened, was a fifth of the time of writing 218,000 address rows. Answers the rows the statements return,
   * when `conflict` ends in a `returning` clause.
   */
  #insertOnSqlite(
    connection: SQLite.Database,
    table: string,
    columns: string[],
    rows: Record<string, unknown>[],
    conflict: string,
  ): Array<{ id: number; key: string }> {
    const returned: Array<{ id: number; key: string }> = [];
    for (let start = 0; start < rows.length; start += SQLITE_ROWS_PER_STATEMENT) {
      const end = Math.min(rows.length, start + SQLITE_ROWS_PER_STATEMENT);
      const parameters: unknown[] = new Array((end - start) * columns.length);
      let next = 0;
      for (let index = start; index < end; index++) {
        const row = rows[index] as Record<string, unknown>;
        for (const column of columns) parameters[next++] = row[column] ?? null;
      }
      const statement = this.#statement(connection, table, columns, end - start, conflict);
      if (statement.reader) returned.push(...(statement.all(parameters) as typeof returned));
      else statement.run(parameters);
    }
    return returned;
  }

  /**
   * The insert of `count` rows, prepared the first time it is asked for. Found by a short key: building the
   * statement's text to look it up, at every statement, was a twentieth of writing a state's addresses.
   */
  #statement(
    connection: SQLite.Database,
    table: string,
    columns: string[],
    count: number,
    conflict: string,
  ): SQLite.Statement {
    const key = `${table} ${count} ${columns.join(",")}${conflict}`;
    let statement = this.#statements.get(key);
    if (!statement) {
      const row = `(${columns.map(() => "?").join(", ")})`;
      const values = Array(count).fill(row).join(", ");
      statement = connection.prepare(
        `insert into ${quoted(table)} (${columns.map(quoted).join(", ")}) values ${values}${conflict}`,
      );
      this.#statements.set(key, statement);
    }
    return statement;
  }

  #postgresInsert(
    table: string,
    columns: string[],
    rows: Record<string, unknown>[],
    conflict: string,
    types: Map<string, string>,
  ) {
    const arrays = columns.map((column) =>
      this.#postgresArray(
        rows.map((row) => row[column] ?? null),
        typeOf(types, table, column),
      ),
    );
    return sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
      select * from unnest(${sql.join(arrays)})${sql.raw(conflict)}`;
  }

  /** A column's values as one array parameter of the column's type. */
  #postgresArray(values: unknown[], type: string) {
    const array = postgresBinaryArray(values, type) ?? postgresArrayLiteral(values) ?? values;
    return sql`cast(${array} as ${sql.raw(type)}[])`;
  }

  #typesOf(table: string): Promise<Map<string, string>> {
    let types = this.#columnTypes.get(table);
    if (!types) {
      types = sql<{ name: string; type: string }>`
        select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
        where attrelid = cast(${table} as regclass) and attnum > 0 and not attisdropped`
        .execute(this.#trx)
        .then(({ rows }) => new Map(rows.map((row) => [row.name, row.type])));
      this.#columnTypes.set(table, types);
    }
    return types;
  }
}

/** A column's type as the catalog names it (`double precision`, `bytea`). */
function typeOf(types: Map<string, string>, table: string, column: string): string {
  const type = types.get(column);
  if (type === undefined) throw new Error(`${table} has no column ${column}`);
  return type;
}

/** `on conflict (key) do update set` every other column to the value the insert brought. */
function conflictClause(columns: readonly string[], key: readonly string[]): string {
  const set = columns
    .filter((column) => !key.includes(column))
    .map((column) => `${quoted(column)} = excluded.${quoted(column)}`);
  return ` on conflict (${key.map(quoted).join(", ")}) do update set ${set.join(", ")}`;
}

/** Table and column names come from the schema's types, never from input; quoted all the same. */
function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
