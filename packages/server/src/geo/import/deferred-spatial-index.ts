import { sql } from "kysely";
import { KEY } from "../store/spatial-filter.js";
import type { ImportContext } from "./run-import.js";

/** The tables whose R*Tree an import may fill at its end. */
type DeferredTable = "parcels" | "buildings" | "layer_features" | "layer_parts";

/** What of an import the index works in: its transaction. */
type InTransaction = Pick<ImportContext, "trx" | "dialect">;

/**
 * What a row's entry in its table's R*Tree holds after its key and box, as the table's insert trigger writes it: for
 * a layer's feature, the layer's span on the tree's third axis (migration 0020; a test compares the two).
 */
const AFTER_BOX: Partial<Record<DeferredTable, string>> = {
  layer_features: ", dataset_id - 0.25, dataset_id + 0.25",
};

/**
 * SQLite: the rows an import adds enter their table's R*Tree in one statement at its end, in the order they were
 * written (space order, for lots and footprints), instead of one by one through the insert trigger as each batch is
 * stored. The trigger is dropped when the import begins and made again from its own definition at the end, inside
 * the import's transaction: readers keep seeing it until the commit, and a failed import gets it back with its
 * rollback. The update and delete triggers stay, so a row the import writes over or removes is kept right; one it
 * added is not in the tree yet, and is entered with its last box.
 *
 * Nothing the import does meanwhile looks for its own new rows by place (duplicates are sought among other
 * datasets), and the tree is whole again before the import's end work (extents, properties, buildings' parcels).
 * The rows written so far may also enter it earlier ({@link catchUp}), while the main thread waits for its threads.
 *
 * PostgreSQL keeps its GiST index: dropping it would lock the table against readers for the whole import.
 */
export class DeferredSpatialIndex {
  readonly #table: DeferredTable;
  readonly #trigger: string;
  /**
   * Every row of a larger id is one the import added and has not entered yet; every row it adds has a larger id
   * than any before (the tables' ids are AUTOINCREMENT).
   */
  #enteredUpTo: number;

  private constructor(table: DeferredTable, trigger: string, lastIdBefore: number) {
    this.#table = table;
    this.#trigger = trigger;
    this.#enteredUpTo = lastIdBefore;
  }

  /** Drops `table`'s insert trigger; none on PostgreSQL. */
  static async begin(context: InTransaction, table: DeferredTable): Promise<DeferredSpatialIndex | undefined> {
    if (context.dialect !== "sqlite") return undefined;
    const name = `${table}_rtree_insert`;
    const { rows } = await sql<{ definition: string; last: number | null }>`
      select sql as definition, (select seq from sqlite_sequence where name = ${table}) as last
      from sqlite_master where type = 'trigger' and name = ${name}`.execute(context.trx);
    const trigger = rows[0];
    if (!trigger) return undefined;
    await sql`drop trigger ${sql.id(name)}`.execute(context.trx);
    return new DeferredSpatialIndex(table, trigger.definition, trigger.last ?? 0);
  }

  /**
   * Enters the rows added since {@link begin} or the last call into the R*Tree: for a main thread that would
   * otherwise wait for its threads, so that less is left to its end, where nothing else can go on. A row entered
   * is then kept right by the update and delete triggers.
   */
  async catchUp(context: InTransaction): Promise<void> {
    const { rows } = await sql<{ last: number | null }>`
      select seq as last from sqlite_sequence where name = ${this.#table}`.execute(context.trx);
    const last = Number(rows[0]?.last ?? 0);
    if (last <= this.#enteredUpTo) return;
    const key = sql.ref(KEY[this.#table]);
    await sql`
      insert into ${sql.table(`${this.#table}_rtree`)}
      select ${key}, min_lon, max_lon, min_lat, max_lat${sql.raw(AFTER_BOX[this.#table] ?? "")}
      from ${sql.table(this.#table)}
      where ${key} > ${this.#enteredUpTo} and ${key} <= ${last} order by ${key}`.execute(context.trx);
    this.#enteredUpTo = last;
  }

  /** Enters the rows added and not entered yet into the R*Tree and makes the trigger again. */
  async end(context: InTransaction): Promise<void> {
    await this.catchUp(context);
    await sql.raw(this.#trigger).execute(context.trx);
  }
}
