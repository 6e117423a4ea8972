import { type RawBuilder, sql } from "kysely";
import type { NormalizedAddress } from "../address/index.js";
import type { ImportContext } from "./run-import.js";
import { WrittenRows } from "./written-rows.js";

/** The index a first load goes without. */
const STREET_INDEX = "addresses_by_street";

/**
 * Rows a first load keeps track of in memory (10 to 16 bytes each, so at most some 40 MB); past them it builds the
 * street index and seeks it, as any later import does, so that a nation's file stays within an import's memory.
 */
const FIRST_LOAD_MOST_ROWS = 3_000_000;

/**
 * A SQLite import of addresses into a namespace that holds none: the street index is dropped when the load begins
 * and built in one pass when it ends, inside the import's transaction (readers keep seeing the index until the
 * commit, and a failed import gets it back with its rollback). A state's rows come in the file's order, and their
 * entries in an index by street and number land all over it: inserting them was two thirds of inserting the rows,
 * and four times building the index afterwards. While it is gone, the rows the load wrote are found through
 * {@link WrittenRows}, which numbers them.
 *
 * PostgreSQL keeps its index: dropping it would lock the table against readers for the whole import.
 */
export class FirstAddressLoad {
  readonly rows: WrittenRows;
  readonly #indexDefinition: string;

  private constructor(rows: WrittenRows, indexDefinition: string) {
    this.rows = rows;
    this.#indexDefinition = indexDefinition;
  }

  /** Drops the street index and starts numbering rows after every id the table has given; none on PostgreSQL. */
  static async begin(context: ImportContext): Promise<FirstAddressLoad | undefined> {
    if (context.dialect !== "sqlite") return undefined;
    // Built again from its own definition, whatever a migration made it.
    const definition = await firstValue<string>(
      context,
      sql`select sql as value from sqlite_master where type = 'index' and name = ${STREET_INDEX}`,
    );
    if (definition === undefined) return undefined;
    // An id is never given twice (the table's ids are AUTOINCREMENT): the next is past the largest ever given.
    const lastId = await firstValue<number>(
      context,
      sql`select max(coalesce((select seq from sqlite_sequence where name = 'addresses'), 0),
        coalesce((select max(address_id) from addresses), 0)) as value`,
    );
    await sql`drop index ${sql.id(STREET_INDEX)}`.execute(context.trx);
    return new FirstAddressLoad(new WrittenRows((lastId ?? 0) + 1), definition);
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

  /** Builds the street index again: at the load's end, or when it cannot go on without it. */
  async end(context: ImportContext): Promise<void> {
    await sql.raw(this.#indexDefinition).execute(context.trx);
  }
}

async function firstValue<T>(context: ImportContext, query: RawBuilder<unknown>): Promise<T | undefined> {
  const { rows } = await query.execute(context.trx);
  return (rows[0] as { value: T } | undefined)?.value;
}
