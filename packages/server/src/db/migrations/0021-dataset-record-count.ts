import { type Kysely, type Migration, sql } from "kysely";

/** The table holding each kind of dataset's rows (as `geo/datasets/dataset-extent.ts` has it, frozen here). */
const TABLES = { parcels: "parcels", buildings: "buildings", addresses: "addresses", layer: "layer_features" };

/**
 * Each dataset keeps how many rows it holds, refreshed with its extent when an import ends. `datasets list` counted
 * every table of a state's data to print it; the search for a point layer's nearest feature starts from the
 * layer's density, which needs the count beside the extent.
 */
export const datasetRecordCount: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("datasets")
      .addColumn("record_count", "bigint", (column) => column.notNull().defaultTo(0))
      .execute();
    for (const [kind, table] of Object.entries(TABLES)) {
      await sql`
        update datasets set record_count = (select count(*) from ${sql.table(table)} r
          where r.dataset_id = datasets.dataset_id)
        where kind = ${kind}`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("datasets").dropColumn("record_count").execute();
  },
};
