import type { Selectable } from "kysely";
import type { AddressTable } from "../../db/schema.js";
import { formatAddress, type NormalizedAddress, readFormattedAddress } from "../address/index.js";

/** The columns of a stored address that its one-line form is written from. */
export const ADDRESS_PART_COLUMNS = [
  "number",
  "street",
  "unit_type",
  "unit",
  "city",
  "state",
  "postcode",
  "plus4",
] as const;

export type AddressParts = Pick<Selectable<AddressTable>, (typeof ADDRESS_PART_COLUMNS)[number]>;

/**
 * A stored address's canonical one-line form, e.g. `120 GORE ST, CAMBRIDGE, MA 02141`: its columns written out as
 * the import normalized them (`street` holds directionals, name and suffix together, as `formatAddress` writes
 * them). The line is not stored: it would be a third of the row again.
 */
export function addressLine(row: AddressParts): string {
  return formatAddress({
    number: row.number ?? undefined,
    street: row.street,
    unitType: row.unit_type ?? undefined,
    unit: row.unit ?? undefined,
    city: row.city ?? undefined,
    state: row.state ?? undefined,
    postcode: row.postcode ?? undefined,
    plus4: row.plus4 ?? undefined,
  });
}

/** A stored address read back whole, its street's directionals, name and suffix apart again. */
export function storedAddress(row: AddressParts): NormalizedAddress {
  return readFormattedAddress(addressLine(row));
}
