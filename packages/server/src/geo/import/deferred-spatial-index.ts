import { sql } from "kysely";
import { KEY } from "../store/spatial-filter.js";
import type { ImportContext } from "./run-import.js";

/** The tables whose R*Tree an import may fill at its end. */
type DeferredTable = "parcels" | "buildings" | "layer_features" | "layer_parts";

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
 *
 * PostgreSQL keeps its GiST index: dropping it would lock the table against readers for the whole import.
 */
export class DeferredSpatialIndex {
  readonly #table: DeferredTable;
  readonly #trigger: string;
  /** Every row the import adds has a larger id (the tables' ids are AUTOINCREMENT). */
  readonly #lastIdBefore: number;

  private constructor(table: DeferredTable, trigger: string, lastIdBefore: number) {
    this.#table = table;
    this.#trigger = trigger;
    this.#lastIdBefore = lastIdBefore;
  }

  /** Drops `table`'s insert trigger; none on PostgreSQL. */
  static async begin(context: ImportContext, table: DeferredTable): Promise<DeferredSpatialIndex | undefined> {
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

  /** Enters the rows added since {@link begin} into the R*Tree and makes the trigger again. */
  async end(context: ImportContext): Promise<void> {
    const key = sql.ref(KEY[this.#table]);
    await sql`
      insert into ${sql.table(`${this.#table}_rtree`)}
      select ${key}, min_lon, max_lon, min_lat, max_lat${sql.raw(AFTER_BOX[this.#table] ?? "")}
      from ${sql.table(this.#table)}
      where ${key} > ${this.#lastIdBefore} order by ${key}`.execute(context.trx);
    await sql.raw(this.#trigger).execute(context.trx);
  }
}
