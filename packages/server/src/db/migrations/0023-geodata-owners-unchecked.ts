import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../database.js";

/** The geodata tables whose rows name their dataset and the import that wrote them, as created by 0002 and 0011. */
const OWNED = [
  { table: "parcels", dataset: true },
  { table: "buildings", dataset: true },
  { table: "addresses", dataset: true },
  { table: "layer_features", dataset: true },
  { table: "layer_parts", dataset: false },
] as const;

/**
 * PostgreSQL: a geodata row's dataset and import are no longer checked by foreign keys. PostgreSQL checks a foreign
 * key row by row, with a trigger running a query for each, and every row an import writes names the dataset it
 * holds locked and the import row it inserted, in the same transaction: the two checks took a fifth of a state's
 * address import (550,560 rows: 19.4–20.2 s with them, 16.2–16.6 s without). Imports are the only writers of these
 * rows, and removing a dataset deletes its rows itself, its dataset row locked first (`remove-dataset.ts`); the
 * foreign keys on parcels (a building's, an address's) stay, as does a layer part's on its feature.
 *
 * SQLite keeps them: its checks are a seek each, within the noise of an import, and dropping one means copying
 * the table.
 */
export function geodataOwnersUnchecked(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      for (const { table } of OWNED) {
        const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
          where conrelid = cast(${table} as regclass) and contype = 'f'
            and confrelid in (cast('datasets' as regclass), cast('imports' as regclass))`.execute(db);
        for (const { name } of rows)
          await sql`alter table ${sql.table(table)} drop constraint ${sql.id(name)}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      for (const { table, dataset } of OWNED) {
        const datasetKey = sql`add foreign key (dataset_id) references datasets (dataset_id) on delete cascade, `;
        await sql`alter table ${sql.table(table)} ${dataset ? datasetKey : sql``}
          add foreign key (import_id) references imports (import_id)`.execute(db);
      }
    },
  };
}
