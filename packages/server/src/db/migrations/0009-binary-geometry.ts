import { type Kysely, type Migration, type RawBuilder, sql } from "kysely";
import { decodeWkb, encodeWkb } from "../../geo/store/wkb.js";
import type { Dialect } from "../database.js";

/** The geometry columns, by table and key. */
const COLUMNS = [
  { table: "parcels", key: "parcel_id", column: "boundary" },
  { table: "buildings", key: "building_id", column: "footprint" },
  { table: "layer_features", key: "feature_id", column: "geometry" },
] as const;

/** Rows converted a statement. */
const CHUNK = 500;

/**
 * Stored geometry becomes Well-Known Binary (`geo/store/wkb.ts`) instead of GeoJSON text: a third of the size and
 * nothing to parse. Each column is converted into a new one a chunk of rows a statement, then takes the old
 * one's place; the data stays the same to the last bit of every coordinate.
 */
export function binaryGeometry(dialect: Dialect): Migration {
  const convert = (from: "text" | "binary") => async (db: Kysely<unknown>) => {
    for (const { table, key, column } of COLUMNS) {
      const next = `${column}_next`;
      await db.schema
        .alterTable(table)
        .addColumn(next, sql.raw(from === "text" ? (dialect === "sqlite" ? "blob" : "bytea") : "text"))
        .execute();
      for (let after = 0; ; ) {
        const { rows } = await sql<{ id: number; value: string | Uint8Array }>`
          select ${sql.ref(key)} as id, ${sql.ref(column)} as value from ${sql.table(table)}
          where ${sql.ref(key)} > ${after} order by ${sql.ref(key)} limit ${CHUNK}`.execute(db);
        const last = rows.at(-1);
        if (!last) break;
        const values = rows.map((row) => ({
          id: row.id,
          value:
            from === "text"
              ? binary(dialect, encodeWkb(JSON.parse(row.value as string)))
              : sql`${JSON.stringify(decodeWkb(row.value as Uint8Array))}`,
        }));
        await sql`update ${sql.table(table)} set ${sql.ref(next)} = case ${sql.ref(key)} ${sql.join(
          values.map(({ id, value }) => sql`when ${id} then ${value}`),
          sql` `,
        )} end where ${sql.ref(key)} in (${sql.join(values.map(({ id }) => id))})`.execute(db);
        after = last.id;
      }
      await db.schema.alterTable(table).dropColumn(column).execute();
      await db.schema.alterTable(table).renameColumn(next, column).execute();
      if (dialect === "postgres") {
        await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set not null`.execute(db);
      }
    }
  };
  return { up: convert("text"), down: convert("binary") };
}

/** A byte string as a parameter; PostgreSQL is told its type, which a `case` cannot infer. */
function binary(dialect: Dialect, bytes: Buffer): RawBuilder<unknown> {
  return dialect === "sqlite" ? sql`${bytes}` : sql`${bytes}::bytea`;
}
