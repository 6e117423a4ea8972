import type { CreateTableBuilder, Kysely } from "kysely";
import type { Dialect } from "../database.js";

/**
 * `create table` with an integer key the database assigns: `autoincrement` on SQLite (never reused, even after
 * deletes), an identity column on PostgreSQL.
 */
export function createTableWithId<T extends string, C extends string>(
  db: Kysely<unknown>,
  dialect: Dialect,
  table: T,
  column: C,
): CreateTableBuilder<T, C> {
  return db.schema
    .createTable(table)
    .addColumn(column, "integer", (c) =>
      dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity(),
    );
}
