import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../database.js";

/**
 * PostgreSQL: an address's parcel is no longer checked by a foreign key. The check is a trigger's query for every
 * row, which also locks the parcel's row, writing to its page: 3.4 µs of the server's for each of a state's address
 * rows, and a 20-tile address import took 12.14 s without it against 13.38 s with it. Removing a parcel dataset
 * clears its addresses' parcels itself, first waiting for the address imports of its namespace, each of which holds
 * a lock on the namespace's parcels from its first batch to its end (`geo/datasets/namespace-parcels-lock.ts`). The
 * keys of a building's and a property's parcel stay.
 *
 * SQLite keeps the key, as it kept those of migration 0023.
 */
export function addressParcelsUnchecked(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
        where conrelid = cast('addresses' as regclass) and contype = 'f'
          and confrelid = cast('parcels' as regclass)`.execute(db);
      for (const { name } of rows) await sql`alter table addresses drop constraint ${sql.id(name)}`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      await sql`update addresses set parcel_id = null
        where parcel_id is not null and not exists (select 1 from parcels where parcels.parcel_id = addresses.parcel_id)`.execute(
        db,
      );
      await sql`alter table addresses
        add foreign key (parcel_id) references parcels (parcel_id) on delete set null`.execute(db);
    },
  };
}
