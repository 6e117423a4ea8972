import { type Kysely, type Migration, sql } from "kysely";
import { AttributeKeys, attributesFrom } from "../../geo/store/stored-attributes.js";
import type { Dialect } from "../database.js";
import type { Schema } from "../schema.js";
import { createTableWithId } from "./create-table-with-id.js";

/** The tables whose rows carry a source record's attributes, with their key column. */
const TABLES = [
  { table: "parcels", id: "parcel_id" },
  { table: "buildings", id: "building_id" },
  { table: "layer_features", id: "feature_id" },
] as const;

/** Rows rewritten a statement. */
const CHUNK = 1000;

/**
 * A record's attributes are stored as their values alone, their names once in `attribute_keys`
 * (`geo/store/stored-attributes.ts`). Every stored row is rewritten, a thousand a statement; going down, the rows
 * get their JSON objects back.
 */
export function attributeKeys(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await createTableWithId(db, dialect, "attribute_keys", "keys_id")
        .addColumn("digest", "text", (c) => c.notNull().unique())
        .addColumn("keys", "text", (c) => c.notNull())
        .execute();
      const keys = new AttributeKeys(db as Kysely<Schema>);
      for (const { table, id } of TABLES) {
        await db.schema
          .alterTable(table)
          .addColumn("attribute_keys_id", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        await rewriteInChunks(db, table, id, async (rows) => {
          const columns = await keys.columnsOf(rows.map((row) => JSON.parse(row.attributes)));
          return rows.map((row, i) => ({ id: row.id, ...(columns[i] as (typeof columns)[number]) }));
        });
      }
    },

    async down(db: Kysely<unknown>) {
      for (const { table, id } of TABLES) {
        await rewriteInChunks(db, table, id, async (rows) =>
          rows.map((row) => ({
            id: row.id,
            attribute_keys_id: 0,
            attributes: JSON.stringify(attributesFrom(row.keys, row.attributes)),
          })),
        );
        await db.schema.alterTable(table).dropColumn("attribute_keys_id").execute();
      }
      await db.schema.dropTable("attribute_keys").execute();
    },
  };
}

interface StoredRow {
  id: number;
  keys: string | null;
  attributes: string;
}

/** Every row of `table` read and written again in id order, `CHUNK` rows a statement, by `rewrite`. */
async function rewriteInChunks(
  db: Kysely<unknown>,
  table: string,
  id: string,
  rewrite: (rows: StoredRow[]) => Promise<Array<{ id: number; attribute_keys_id: number; attributes: string }>>,
): Promise<void> {
  for (let after = 0; ; ) {
    const { rows } = await sql<StoredRow>`
      select ${sql.ref(id)} as id, k.keys as keys, attributes from ${sql.table(table)}
      left join attribute_keys k on k.keys_id = attribute_keys_id
      where ${sql.ref(id)} > ${after} order by ${sql.ref(id)} limit ${CHUNK}`.execute(db);
    const last = rows.at(-1);
    if (!last) return;
    const written = await rewrite(rows);
    const cases = (value: (row: (typeof written)[number]) => unknown) =>
      sql.join(
        written.map((row) => sql`when ${row.id} then ${value(row)}`),
        sql` `,
      );
    await sql`update ${sql.table(table)} set
        attribute_keys_id = cast(case ${sql.ref(id)} ${cases((row) => row.attribute_keys_id)} end as integer),
        attributes = case ${sql.ref(id)} ${cases((row) => row.attributes)} end
      where ${sql.ref(id)} in (${sql.join(written.map((row) => row.id))})`.execute(db);
    after = last.id;
  }
}
