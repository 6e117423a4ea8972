import type pg from "pg";

/**
 * Names given at most, for the life of the process: each connection that runs a named statement keeps it prepared
 * on the server until the connection closes, so the bound also bounds what every connection holds there. The service
 * runs a few hundred distinct statements with parameters; a text written anew for each count of values
 * (`in ($1, $2)`) takes a name only while there is room.
 */
const MOST_NAMED = 300;

/**
 * The names of recurring statement texts: a text is named the second time it runs, so that a statement run once (a
 * migration's, an operator command's) is not kept prepared. A name is never given twice: a connection that
 * prepared it keeps it for the text it was given for.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();
  /** Texts seen once; past the bound the count starts again (a recurring text soon comes back). */
  readonly #seen = new Set<string>();
  readonly #mostNamed: number;
  #given = 0;

  constructor(mostNamed = MOST_NAMED) {
    this.#mostNamed = mostNamed;
  }

  /** The name `text` runs under, or undefined while it runs unnamed. */
  nameOf(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#given >= this.#mostNamed) return name;
    if (!this.#seen.has(text)) {
      if (this.#seen.size >= 10 * this.#mostNamed) this.#seen.clear();
      this.#seen.add(text);
      return undefined;
    }
    this.#seen.delete(text);
    const given = `lotline_${this.#given++}`;
    this.#names.set(text, given);
    return given;
  }

  /** `text` runs unnamed until it recurs, and then under a new name. */
  forget(text: string): void {
    this.#names.delete(text);
  }

  /** Every text runs unnamed until it recurs: after a change of the schema, which may change a statement's rows. */
  forgetAll(): void {
    this.#names.clear();
  }
}

/** One for the process: a name stands for one text on every connection. */
const processNames = new StatementNames();

/** A statement that changes the schema (a migration's): the prepared statements' rows may change with it. */
const SCHEMA_CHANGE = /^\s*(alter|create|drop|truncate)\b/i;

/**
 * PostgreSQL refuses to run a prepared statement whose rows would change columns (`select *` from a table another
 * process's migration gave a column): `feature_not_supported`, and this message.
 */
function rowsChanged(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === "0A000" && typeof message === "string" && message.includes("must not change result type");
}

/**
 * Makes a PostgreSQL connection run the statements it is given with parameters as named prepared statements, once
 * they recur: the server then parses each text once per connection, and after a few runs plans it once too, where
 * an unnamed statement is parsed and planned at every run. An order runs some forty statements, and an order on
 * PostgreSQL took 11 % less for it. Every spatial statement's plan for any parameters is led by the spatial index,
 * as its plan for the parameters given is (`geo/queries/query-plans.test.ts` reads both). A statement without
 * parameters goes by the simple protocol as before, and a cursor's as its cursor sends it.
 *
 * A schema changed by this process (a migration) makes every text start again unnamed. One changed by another
 * process can change the rows of a statement prepared here: PostgreSQL then refuses it, and it is run again unnamed
 * when it was alone (outside a transaction, which the refusal would have ended); inside one the refusal stands, and
 * the text takes a new name when it recurs.
 */
export function keepStatementsPrepared(client: pg.PoolClient, names: StatementNames = processNames): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const prepared = (text: unknown, values?: unknown, callback?: unknown) => {
    const schemaChange = typeof text === "string" && SCHEMA_CHANGE.test(text);
    if (schemaChange) names.forgetAll();
    if (typeof text !== "string" || schemaChange || !Array.isArray(values) || values.length === 0 || callback) {
      return query(text, values, callback);
    }
    const name = names.nameOf(text);
    if (name === undefined) return query(text, values);
    const alone = client.getTransactionStatus() === "I";
    return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      if (!rowsChanged(error)) throw error;
      names.forget(text);
      if (!alone) throw error;
      return query(text, values);
    });
  };
  (client as unknown as { query: typeof prepared }).query = prepared;
}
