import { type RawBuilder, sql } from "kysely";
import type { NormalizedAddress } from "../address/index.js";
import type { ImportContext } from "./run-import.js";
import { WrittenRows } from "./written-rows.js";

/** The indexes a first load goes without. */
const STREET_INDEX = "addresses_by_street";
const PARCEL_INDEX = "addresses_by_parcel";

/**
 * Rows a first load keeps track of in memory (10 to 16 bytes each, so at most some 40 MB); past them it builds the
 * indexes and seeks the street index, as any later import does, so that a nation's file stays within an import's
 * memory.
 */
const FIRST_LOAD_MOST_ROWS = 3_000_000;

/**
 * A SQLite import of addresses into a namespace that holds none: the street index and the index by parcel are
 * dropped when the load begins and built in one pass each when it ends, inside the import's transaction (readers
 * keep seeing the indexes until the commit, and a failed import gets them back with its rollback). A state's rows
 * come in the file's order, and their entries in an index by street and number land all over it: inserting them was
 * two thirds of inserting the rows, and four times building the index afterwards; the index by parcel, whose
 * entries follow the parcels' order rather than the file's, took a third of what remained. While the street index
 * is gone, the rows the load wrote are found through {@link WrittenRows}, which numbers them.
 *
 * PostgreSQL keeps its indexes: dropping them would lock the table against readers for the whole import.
 */
export class FirstAddressLoad {
  readonly rows: WrittenRows;
  readonly #indexDefinitions: string[];

  private constructor(rows: WrittenRows, indexDefinitions: string[]) {
    this.rows = rows;
    this.#indexDefinitions = indexDefinitions;
  }

  /** Drops the indexes and starts numbering rows after every id the table has given; none on PostgreSQL. */
  static async begin(context: ImportContext): Promise<FirstAddressLoad | undefined> {
    if (context.dialect !== "sqlite") return undefined;
    // Built again from their own definitions, whatever a migration made them.
    const { rows: indexes } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where type = 'index' and name in (${STREET_INDEX}, ${PARCEL_INDEX})`.execute(context.trx);
    if (!indexes.some((index) => index.name === STREET_INDEX)) return undefined;
    // An id is never given twice (the table's ids are AUTOINCREMENT): the next is past the largest ever given.
    const lastId = await firstValue<number>(
      context,
      sql`select max(coalesce((select seq from sqlite_sequence where name = 'addresses'), 0),
        coalesce((select max(address_id) from addresses), 0)) as value`,
    );
    for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(context.trx);
    const definitions = indexes.map((index) => index.sql);
    return new FirstAddressLoad(new WrittenRows((lastId ?? 0) + 1), definitions);
  }

  /**
   * Whether the load can go on without the index for these addresses: while the rows written are within
   * {@link FIRST_LOAD_MOST_ROWS}, and for an address naming no town, while no row written named one (such an
   * address may be any town's, and the rows are kept by town).
   */
  canTake(addresses: NormalizedAddress[]): boolean {
    return (
      this.rows.count + addresses.length <= FIRST_LOAD_MOST_ROWS &&
      addresses.every((address) => this.rows.answers(address))
    );
  }

  /** Builds the indexes again: at the load's end, or when it cannot go on without the street index. */
  async end(context: ImportContext): Promise<void> {
    for (const definition of this.#indexDefinitions) await sql.raw(definition).execute(context.trx);
  }
}

async function firstValue<T>(context: ImportContext, query: RawBuilder<unknown>): Promise<T | undefined> {
  const { rows } = await query.execute(context.trx);
  return (rows[0] as { value: T } | undefined)?.value;
}
