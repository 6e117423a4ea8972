import { type Expression, sql } from "kysely";

/**
 * The `do update set` of an upsert that replaces `columns` with the values the insert brought
 * (`column = excluded.column`), written the same on SQLite and PostgreSQL.
 */
export function replaceFromExcluded<C extends string>(columns: readonly C[]): Record<C, Expression<never>> {
  const set = {} as Record<C, Expression<never>>;
  for (const column of columns) set[column] = sql.ref<never>(`excluded.${column}`);
  return set;
}
