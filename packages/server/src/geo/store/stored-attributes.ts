import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { Schema } from "../../db/schema.js";

/**
 * A record's attributes as stored: the values alone, a JSON array, beside the id of their names, which
 * `attribute_keys` holds once for every record with the same names (a file's records nearly always share them).
 * Written with every row, the names were most of a layer's attributes — 400 of a Cambridge hydrant's 650 bytes —
 * and a state's parcel file repeats its names millions of times.
 */
export interface AttributeColumns {
  attribute_keys_id: number;
  attributes: string;
}

/** How many lists of names are kept parsed; a file has one or a few. */
const PARSED_KEYS_KEPT = 1000;
const parsedKeys = new Map<string, { names: string[]; assignable: boolean }>();

/** The attributes of a stored row, from its names (`attribute_keys.keys`, null when absent) and its values. */
export function attributesFrom(keys: string | null, values: string): Record<string, unknown> {
  if (keys === null) return {};
  const { names, assignable } = namesOf(keys);
  const list = JSON.parse(values) as unknown[];
  // Assigning "__proto__" would set the prototype; fromEntries defines it as an attribute, more slowly.
  if (!assignable) return Object.fromEntries(names.map((name, i) => [name, list[i]]));
  const attributes: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) attributes[names[i] as string] = list[i];
  return attributes;
}

function namesOf(keys: string): { names: string[]; assignable: boolean } {
  let parsed = parsedKeys.get(keys);
  if (!parsed) {
    if (parsedKeys.size >= PARSED_KEYS_KEPT) parsedKeys.clear();
    const names = JSON.parse(keys) as string[];
    parsed = { names, assignable: !names.includes("__proto__") };
    parsedKeys.set(keys, parsed);
  }
  return parsed;
}

/**
 * The names and values of records' attributes, each a JSON array; a name whose value is undefined is left out, as
 * JSON text of the whole object would leave it. A record naming its attributes as the one before did is given the
 * same text of names: a file's records nearly always do, and writing the names was a third of splitting a hydrant.
 */
class AttributeSplitter {
  #names: string[] = [];
  #keys = "[]";

  split(attributes: Record<string, unknown>): { keys: string; values: string } {
    // One pass, no entry pairs: a state's hydrants or addresses are millions of records to split.
    const names: string[] = [];
    const values: unknown[] = [];
    for (const name of Object.keys(attributes)) {
      const value = attributes[name];
      if (value === undefined) continue;
      names.push(name);
      values.push(value);
    }
    if (!sameNames(names, this.#names)) {
      this.#names = names;
      this.#keys = JSON.stringify(names);
    }
    return { keys: this.#keys, values: JSON.stringify(values) };
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The `attribute_keys` an import writes through: the stored columns of each record's attributes, adding a list of
 * names not stored yet (in the import's transaction, so a refused import leaves none behind).
 */
export class AttributeKeys {
  readonly #db: Kysely<Schema>;
  readonly #ids = new Map<string, number>();
  readonly #splitter = new AttributeSplitter();

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async columnsOf(list: Array<Record<string, unknown>>): Promise<AttributeColumns[]> {
    const parts = list.map((attributes) => this.#splitter.split(attributes));
    for (const { keys } of parts) {
      if (!this.#ids.has(keys)) this.#ids.set(keys, await this.#idOf(keys));
    }
    return parts.map(({ keys, values }) => ({ attribute_keys_id: this.#ids.get(keys) as number, attributes: values }));
  }

  async #idOf(keys: string): Promise<number> {
    const digest = createHash("sha256").update(keys).digest("base64url");
    await this.#db
      .insertInto("attribute_keys")
      .values({ digest, keys })
      .onConflict((conflict) => conflict.column("digest").doNothing())
      .execute();
    const row = await this.#db
      .selectFrom("attribute_keys")
      .select("keys_id")
      .where("digest", "=", digest)
      .executeTakeFirstOrThrow();
    return row.keys_id;
  }
}
