import { type Kysely, type Migration, sql } from "kysely";
import { addressKey, readFormattedAddress } from "../../geo/address/index.js";
import type { Dialect } from "../database.js";
import { createTableWithId } from "./create-table-with-id.js";

/** Rows given back their key and JSON a statement, going down. */
const CHUNK = 500;

/**
 * An address is kept as its canonical one-line form (`display`), which reads back to the whole normalized address,
 * and the columns its lookups filter on. The normalized address as JSON and the address key were copies of the
 * same (more than half of a row), and the key's unique index another copy: at a state's 2 M addresses, hundreds of
 * megabytes. Imports now find an address already stored through the street index (`geo/import/same-address.ts`).
 *
 * SQLite cannot drop a column under a unique constraint, so there the table is built again and its rows copied,
 * ids and the id sequence kept; PostgreSQL drops the two columns.
 */
export function compactAddresses(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") {
        await db.schema.alterTable("addresses").dropColumn("address_key").dropColumn("normalized").execute();
        return;
      }
      await createTableWithId(db, dialect, "addresses_compact", "address_id")
        .addColumn("dataset_id", "integer", (c) => c.notNull().references("datasets.dataset_id").onDelete("cascade"))
        .addColumn("display", "text", (c) => c.notNull())
        .addColumn("number", "text")
        .addColumn("number_low", "double precision")
        .addColumn("number_high", "double precision")
        .addColumn("street", "text", (c) => c.notNull())
        .addColumn("unit_type", "text")
        .addColumn("unit", "text")
        .addColumn("city", "text")
        .addColumn("state", "text")
        .addColumn("postcode", "text")
        .addColumn("parcel_id", "integer", (c) => c.references("parcels.parcel_id").onDelete("set null"))
        .addColumn("lon", "double precision", (c) => c.notNull())
        .addColumn("lat", "double precision", (c) => c.notNull())
        .addColumn("import_id", "integer", (c) => c.notNull().references("imports.import_id"))
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      // Ids are never reused: the new table's sequence starts where the old one's stood.
      await sql`insert into sqlite_sequence (name, seq)
        select 'addresses_compact', seq from sqlite_sequence where name = 'addresses'`.execute(db);
      const columns = sql.raw(KEPT_COLUMNS.join(", "));
      await sql`insert into addresses_compact (${columns}) select ${columns} from addresses`.execute(db);
      await db.schema.dropTable("addresses").execute();
      await db.schema.alterTable("addresses_compact").renameTo("addresses").execute();
      await db.schema
        .createIndex("addresses_by_street")
        .on("addresses")
        .columns(["street", "number_low", "city"])
        .execute();
      await db.schema.createIndex("addresses_by_parcel").on("addresses").column("parcel_id").execute();
      await db.schema.createIndex("addresses_by_lat").on("addresses").columns(["lat", "lon"]).execute();
    },

    async down(db: Kysely<unknown>) {
      await db.schema
        .alterTable("addresses")
        .addColumn("address_key", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema
        .alterTable("addresses")
        .addColumn("normalized", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      for (let after = 0; ; ) {
        const { rows } = await sql<{ id: number; display: string }>`
          select address_id as id, display from addresses where address_id > ${after}
          order by address_id limit ${CHUNK}`.execute(db);
        const last = rows.at(-1);
        if (!last) break;
        const read = rows.map((row) => ({ id: row.id, address: readFormattedAddress(row.display) }));
        const cases = (value: (address: (typeof read)[number]["address"]) => string) =>
          sql.join(
            read.map(({ id, address }) => sql`when ${id} then ${value(address)}`),
            sql` `,
          );
        await sql`update addresses set
            address_key = case address_id ${cases(addressKey)} end,
            normalized = case address_id ${cases((address) => JSON.stringify(address))} end
          where address_id in (${sql.join(read.map(({ id }) => id))})`.execute(db);
        after = last.id;
      }
      await db.schema
        .createIndex("addresses_key")
        .on("addresses")
        .columns(["dataset_id", "address_key"])
        .unique()
        .execute();
    },
  };
}

const KEPT_COLUMNS = [
  "address_id",
  "dataset_id",
  "display",
  "number",
  "number_low",
  "number_high",
  "street",
  "unit_type",
  "unit",
  "city",
  "state",
  "postcode",
  "parcel_id",
  "lon",
  "lat",
  "import_id",
  "updated_at",
];
