import { type Kysely, type Migration, sql } from "kysely";

/** The provider every dataset of the generated demo neighbourhood carries (see `geo/demo`). */
const DEMO_PROVIDER = "Lotline (generated)";

/**
 * Datasets get a namespace and an extent. `lotline demo` writes its generated data under the `demo` namespace so
 * that it never mixes with what an operator imports (`main`); the extent (the box of every row the dataset holds)
 * tells where a layer applies and what `lotline datasets list` shows. Existing datasets get both here.
 */
export const datasetNamespaces: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("datasets")
      .addColumn("namespace", "text", (c) => c.notNull().defaultTo("main"))
      .execute();
    for (const column of ["min_lon", "min_lat", "max_lon", "max_lat"]) {
      await db.schema.alterTable("datasets").addColumn(column, "double precision").execute();
    }
    await sql`update datasets set namespace = 'demo' where provider = ${DEMO_PROVIDER}`.execute(db);
    for (const table of ["parcels", "buildings", "layer_features"]) {
      await sql`update datasets set
          min_lon = (select min(min_lon) from ${sql.table(table)} t where t.dataset_id = datasets.dataset_id),
          min_lat = (select min(min_lat) from ${sql.table(table)} t where t.dataset_id = datasets.dataset_id),
          max_lon = (select max(max_lon) from ${sql.table(table)} t where t.dataset_id = datasets.dataset_id),
          max_lat = (select max(max_lat) from ${sql.table(table)} t where t.dataset_id = datasets.dataset_id)
        where kind = ${table === "layer_features" ? "layer" : table}`.execute(db);
    }
    await sql`update datasets set
        min_lon = (select min(lon) from addresses a where a.dataset_id = datasets.dataset_id),
        min_lat = (select min(lat) from addresses a where a.dataset_id = datasets.dataset_id),
        max_lon = (select max(lon) from addresses a where a.dataset_id = datasets.dataset_id),
        max_lat = (select max(lat) from addresses a where a.dataset_id = datasets.dataset_id)
      where kind = 'addresses'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const column of ["namespace", "min_lon", "min_lat", "max_lon", "max_lat"]) {
      await db.schema.alterTable("datasets").dropColumn(column).execute();
    }
  },
};
