import { sql, type Transaction } from "kysely";
import type { Dialect } from "../../db/database.js";
import type { DatasetNamespace, Schema } from "../../db/schema.js";

/**
 * The first key of the advisory locks on a namespace's parcels, the second being the namespace's hash: a space of
 * its own, apart from the migrator's single-key lock.
 */
const PARCELS_OF_NAMESPACE = 0x4c4f5450;

/**
 * PostgreSQL: held by an address import while it joins addresses to the parcels of its namespace, until it ends.
 * Address imports hold it side by side; the removal of a parcel dataset of the namespace waits for them to end, and
 * an address import begun during a removal waits for it to end, so no address keeps the id of a lot removed (no
 * foreign key checks an address's parcel there, migration 0024). SQLite runs one writer at a time.
 */
export async function holdNamespaceParcels(
  { trx, dialect }: { trx: Transaction<Schema>; dialect: Dialect },
  namespace: DatasetNamespace,
): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`select pg_advisory_xact_lock_shared(${PARCELS_OF_NAMESPACE}, hashtext(${namespace}))`.execute(trx);
}

/** PostgreSQL: taken by the removal of a parcel dataset of `namespace`, alone, until it ends. */
export async function takeNamespaceParcels(
  { trx, dialect }: { trx: Transaction<Schema>; dialect: Dialect },
  namespace: DatasetNamespace,
): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`select pg_advisory_xact_lock(${PARCELS_OF_NAMESPACE}, hashtext(${namespace}))`.execute(trx);
}
