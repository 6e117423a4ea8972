import { type Kysely, type Migration, sql } from "kysely";
import { type AddressParts, addressLine } from "../../geo/store/address-line.js";
import type { Dialect } from "../database.js";

/** Rows given back their one-line form a statement, going down. */
const CHUNK = 500;

/**
 * An address's one-line form (`display`) is no longer stored: it is its parts written out (`addressLine`), the
 * very function that made it, so it was a copy of a third of the row. The one part it held alone, a ZIP+4's last
 * four digits, gets a column of its own, taken from the stored line.
 */
export function addressLineFromParts(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("addresses").addColumn("plus4", "text").execute();
      const endsInZipPlus4 =
        dialect === "postgres"
          ? sql`display ~ '[0-9]{5}-[0-9]{4}$'`
          : sql`display glob '*[0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9]'`;
      await sql`update addresses set plus4 = substr(display, length(display) - 3) where ${endsInZipPlus4}`.execute(db);
      await db.schema.alterTable("addresses").dropColumn("display").execute();
    },

    async down(db: Kysely<unknown>) {
      await db.schema
        .alterTable("addresses")
        .addColumn("display", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      for (let after = 0; ; ) {
        const { rows } = await sql<AddressParts & { address_id: number }>`
          select address_id, number, street, unit_type, unit, city, state, postcode, plus4 from addresses
          where address_id > ${after} order by address_id limit ${CHUNK}`.execute(db);
        const last = rows.at(-1);
        if (!last) break;
        const lines = sql.join(
          rows.map((row) => sql`when ${row.address_id} then ${addressLine(row)}`),
          sql` `,
        );
        await sql`update addresses set display = case address_id ${lines} end
          where address_id in (${sql.join(rows.map((row) => row.address_id))})`.execute(db);
        after = last.address_id;
      }
      await db.schema.alterTable("addresses").dropColumn("plus4").execute();
    },
  };
}
