import {
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  sql,
} from "kysely";
import type { Database, Dialect } from "./database.js";
import * as foundation from "./migrations/0001-foundation.js";
import { geodata } from "./migrations/0002-geodata.js";
import { orders } from "./migrations/0003-orders.js";
import { customFields } from "./migrations/0004-custom-fields.js";
import { datasetNamespaces } from "./migrations/0005-dataset-namespaces.js";
import { orderBatches } from "./migrations/0006-order-batches.js";
import { jobPriority } from "./migrations/0007-job-priority.js";
import { batchOpening } from "./migrations/0008-batch-opening.js";
import { binaryGeometry } from "./migrations/0009-binary-geometry.js";
import { addressTownIndex } from "./migrations/0010-address-town-index.js";
import { layerParts } from "./migrations/0011-layer-parts.js";
import { monitoring } from "./migrations/0012-monitoring.js";
import { events } from "./migrations/0013-events.js";
import { propertyVersions } from "./migrations/0014-property-versions.js";
import { eventSearchIndexes } from "./migrations/0015-event-search-indexes.js";
import { compactAddresses } from "./migrations/0016-compact-addresses.js";
import { addressLineFromParts } from "./migrations/0017-address-line-from-parts.js";
import { attributeKeys } from "./migrations/0018-attribute-keys.js";
import { parcellessAddressIndex } from "./migrations/0019-parcelless-address-index.js";
import { layerIndexByLayer } from "./migrations/0020-layer-index-by-layer.js";
import { datasetRecordCount } from "./migrations/0021-dataset-record-count.js";
import { parcelsWithoutSourceIndex } from "./migrations/0022-parcels-without-source-index.js";
import { geodataOwnersUnchecked } from "./migrations/0023-geodata-owners-unchecked.js";
import { addressParcelsUnchecked } from "./migrations/0024-address-parcels-unchecked.js";
import type { Schema } from "./schema.js";

/** Every migration, in order. Names sort in the order they must run; never rename or edit a released one. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    "0001-foundation": foundation,
    "0002-geodata": geodata(dialect),
    "0003-orders": orders(dialect),
    "0004-custom-fields": customFields,
    "0005-dataset-namespaces": datasetNamespaces,
    "0006-order-batches": orderBatches,
    "0007-job-priority": jobPriority,
    "0008-batch-opening": batchOpening,
    "0009-binary-geometry": binaryGeometry(dialect),
    "0010-address-town-index": addressTownIndex,
    "0011-layer-parts": layerParts(dialect),
    "0012-monitoring": monitoring,
    "0013-events": events(dialect),
    "0014-property-versions": propertyVersions(dialect),
    "0015-event-search-indexes": eventSearchIndexes,
    "0016-compact-addresses": compactAddresses(dialect),
    "0017-address-line-from-parts": addressLineFromParts(dialect),
    "0018-attribute-keys": attributeKeys(dialect),
    "0019-parcelless-address-index": parcellessAddressIndex,
    "0020-layer-index-by-layer": layerIndexByLayer(dialect),
    "0021-dataset-record-count": datasetRecordCount,
    "0022-parcels-without-source-index": parcelsWithoutSourceIndex,
    "0023-geodata-owners-unchecked": geodataOwnersUnchecked(dialect),
    "0024-address-parcels-unchecked": addressParcelsUnchecked(dialect),
  };
}

const providerFor = (dialect: Dialect): MigrationProvider => ({ getMigrations: async () => migrations(dialect) });

export class MigrationError extends Error {
  override name = "MigrationError";
}

/**
 * Brings the schema up to date; safe to run from several processes at once (PostgreSQL: the migrator's advisory
 * lock; SQLite: one write transaction around the whole run, so a failed run also leaves nothing half done).
 */
export async function migrateToLatest(database: Database): Promise<string[]> {
  if (await isUpToDate(database)) return [];
  const { error, results = [] } =
    database.dialect === "sqlite" ? await migrateSqlite(database.db) : await migratePostgres(database.db);
  const failed = results.find((result) => result.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new MigrationError(`migration ${failed?.migrationName ?? "(setup)"} failed: ${reason}`);
  }
  return results.filter((result) => result.status === "Success").map((result) => result.migrationName);
}

/**
 * Whether every migration has run and no other, read from the migrator's table: then there is nothing to run and
 * nothing to lock. The migrator takes its lock before it looks — on SQLite the write lock, which an import holds
 * for its whole transaction, so a command or a server started during an import failed once the busy timeout ran
 * out — and on PostgreSQL lists every table and column of the database first (some 50 ms of every command's start).
 * Anything else (a new database, a migration to run, one this version does not know) is the migrator's to answer.
 */
async function isUpToDate({ db, dialect }: Database): Promise<boolean> {
  const applied = await appliedMigrations(db, dialect);
  const every = Object.keys(migrations(dialect));
  return applied?.length === every.length && every.every((name, i) => applied[i] === name);
}

/** The names of the migrations run, in order; none when the migrator's table is not there yet. */
async function appliedMigrations(db: Kysely<Schema>, dialect: Dialect): Promise<string[] | undefined> {
  let schema: string | undefined;
  if (dialect === "sqlite") {
    const { rows } =
      await sql`select 1 from sqlite_master where type = 'table' and name = ${DEFAULT_MIGRATION_TABLE}`.execute(db);
    if (rows.length === 0) return undefined;
  } else {
    // The migrator's table of the schema we work in (see migratePostgres), not one elsewhere on the search path.
    const migrationTable = sql`quote_ident(current_schema()) || '.' || quote_ident(${DEFAULT_MIGRATION_TABLE})`;
    const { rows } = await sql<{ schema: string | null; present: boolean }>`
      select current_schema() as schema, to_regclass(${migrationTable}) is not null as present`.execute(db);
    if (!rows[0]?.present || !rows[0].schema) return undefined;
    schema = rows[0].schema;
  }
  const table = schema === undefined ? sql.id(DEFAULT_MIGRATION_TABLE) : sql.id(schema, DEFAULT_MIGRATION_TABLE);
  const { rows } = await sql<{ name: string }>`select name from ${table} order by name`.execute(db);
  return rows.map((row) => row.name);
}

/**
 * Kysely's migrator looks for its own tables in every schema unless told which one, so a second Lotline (or any
 * Kysely application) in another schema of the same database would hide them: name the schema we work in.
 * Even so it lists the tables of every schema first, which fails when another schema is dropped or a column
 * renamed meanwhile (see {@link isChangedMeanwhile}); that happens before any migration runs, so the run is
 * simply tried again.
 */
async function migratePostgres(db: Kysely<Schema>): Promise<MigrationResultSet> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema ?? undefined;
  for (let attempt = 1; ; attempt++) {
    const outcome = await new Migrator({
      db,
      provider: providerFor("postgres"),
      ...(schema ? { migrationTableSchema: schema } : {}),
    }).migrateToLatest();
    const setupFailed = outcome.error !== undefined && (outcome.results ?? []).length === 0;
    if (!setupFailed || !isChangedMeanwhile(outcome.error) || attempt === SETUP_ATTEMPTS) return outcome;
  }
}

const SETUP_ATTEMPTS = 5;

/**
 * PostgreSQL's `invalid_schema_name`, `undefined_table` and `undefined_column`: a schema, table or column that the
 * listing of every table had seen was gone when it was described — another schema dropped, or another process's
 * migration renaming a column (0009 does) while this one lists the tables before waiting for the lock.
 */
function isChangedMeanwhile(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === "3F000" || code === "42P01" || code === "42703";
}

/**
 * Kysely takes no lock on SQLite, so two processes starting on a new file would both run the first migration.
 * `begin immediate` takes the write lock up front (a second process waits for it, up to the busy timeout); a
 * migration must therefore not open a transaction of its own.
 */
async function migrateSqlite(db: Kysely<Schema>): Promise<MigrationResultSet> {
  await sql`begin immediate`.execute(db);
  let outcome: MigrationResultSet | undefined;
  try {
    outcome = await new Migrator({ db, provider: providerFor("sqlite") }).migrateToLatest();
  } finally {
    await sql.raw(outcome && !outcome.error ? "commit" : "rollback").execute(db);
  }
  return outcome;
}
