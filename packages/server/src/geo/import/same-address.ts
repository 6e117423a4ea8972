import { type SelectQueryBuilder, sql } from "kysely";
import type { Dialect } from "../../db/database.js";
import type { Schema } from "../../db/schema.js";
import { addressKey, type NormalizedAddress, streetKey } from "../address/index.js";
import { geodesicDistance } from "../geometry/index.js";
import { ADDRESS_PART_COLUMNS, storedAddress } from "../store/address-line.js";
import type { LonLat } from "../types.js";
import type { ImportContext } from "./run-import.js";

/**
 * Two rows of one street address are the same place when they share a parcel or lie this close, m: a condominium
 * complex repeats one address over neighbouring lots; the same address in another town is kilometres away.
 */
export const SAME_PLACE_M = 250;

/** An address read from the file, located, before it is written. */
export interface AddressToWrite {
  address: NormalizedAddress;
  key: string;
  parcelId: number | null;
  point: LonLat;
}

/** A stored row of the import's own dataset, which an address being imported may write to. */
export interface OwnRow {
  addressId: number;
  /** The import that last wrote it: this one, when an earlier batch did. */
  importId: number;
}

/** A stored row that is the same address as one being imported. */
export interface StoredAddress extends OwnRow {
  datasetId: number;
  datasetName: string;
  address: NormalizedAddress;
}

/** What is already stored of a batch's addresses. */
export interface StoredMatches {
  /** The rows of the import's own dataset at the batch's streets and numbers, by address key. */
  own: Map<string, OwnRow>;
  /** By entry position, a stored row that is the same address under another key, or in another dataset. */
  same: Array<StoredAddress | undefined>;
}

/**
 * What an import knows of the rows it wrote itself, when those are the only rows of the namespace an address could
 * match (it held none before the import).
 */
export interface OwnWrites {
  /** Whether a row at the address's street, number and unit may have been written: the others need no lookup. */
  mayHold(address: NormalizedAddress): boolean;
  /**
   * The ids of the rows written at the address's street, number and unit, when the import keeps them: they are read by
   * id, without the street index.
   */
  idsAt?(address: NormalizedAddress): number[];
}

/**
 * The stored addresses (of the import's namespace) that each of `entries` is, read through the street index (or by
 * id, among the rows `ownWrites` keeps): the rows of the import's own dataset by address key, which an entry of that key updates; and, for an entry with no
 * such row, a row that is the same address though written differently — the same number, street and unit, and no
 * city, state or ZIP code that disagrees: `75 WINTER ST` and `75 WINTER ST, CAMBRIDGE, MA` are one address. Within
 * the import's own dataset that is enough; a row of another dataset must also be at the same place (the same parcel,
 * or within {@link SAME_PLACE_M}). With `ownWrites`, only the entries it may hold are sought.
 */
export async function storedSameAddresses(
  context: ImportContext,
  entries: AddressToWrite[],
  ownWrites?: OwnWrites,
): Promise<StoredMatches> {
  const sought = ownWrites ? entries.filter((entry) => ownWrites.mayHold(entry.address)) : entries;
  if (sought.length === 0) return { own: new Map(), same: entries.map(() => undefined) };
  const wanted = new WantedPlaces(sought);
  const found = ownWrites?.idsAt
    ? await rowsWritten(context, ownWrites, sought, wanted)
    : await rowsAtNumbers(context, wanted);
  const rows = found.map((row) => ({ ...row, address: storedAddress(row) }));
  const own = new Map<string, OwnRow>();
  for (const row of rows) {
    if (row.dataset_id === context.datasetId) {
      own.set(addressKey(row.address), { addressId: row.address_id, importId: row.import_id });
    }
  }
  // This dataset's rows first, so that an address already in it is updated rather than called a duplicate.
  const byPlace = new Map<string, typeof rows>();
  const ordered = [...rows].sort(
    (a, b) => Number(b.dataset_id === context.datasetId) - Number(a.dataset_id === context.datasetId),
  );
  for (const row of ordered) {
    const key = placeKey(row.address);
    byPlace.set(key, [...(byPlace.get(key) ?? []), row]);
  }
  const same = entries.map((entry) => {
    if (own.has(entry.key)) return undefined;
    const found = byPlace
      .get(placeKey(entry.address))
      ?.find(
        (row) =>
          localitiesAgree(row.address, entry.address) &&
          (row.dataset_id === context.datasetId || samePlace(row, entry)),
      );
    return found
      ? {
          addressId: found.address_id,
          importId: found.import_id,
          datasetId: found.dataset_id,
          datasetName: found.name,
          address: found.address,
        }
      : undefined;
  });
  return { own, same };
}

/** A street, house number and town looked for. */
type Wanted = { street: string; low: number; city: string };
const CANDIDATE_COLUMNS = [
  "addresses.address_id",
  "addresses.dataset_id",
  "datasets.name",
  ...ADDRESS_PART_COLUMNS.map((column) => `addresses.${column}` as const),
  "addresses.number_low",
  "addresses.parcel_id",
  "addresses.lon",
  "addresses.lat",
  "addresses.import_id",
] as const;

/**
 * The streets, house numbers and towns whose stored rows a batch's entries may be. On a state's file the same street
 * and number recur in every town, and reading them all made each batch's work grow with the state: so when every
 * entry names its town, only rows in an entry's own town or in none are wanted; otherwise rows in any town. A number
 * that is not numeric (`A`) has no `number_low`: those entries want their streets' rows without one.
 */
class WantedPlaces {
  readonly byTown: boolean;
  readonly cities: string[];
  readonly numbered = new Map<string, Wanted>();
  readonly unnumberedStreets = new Set<string>();
  /** Street and number of each numbered place: a row without a town is wanted at any of them. */
  readonly #numbers = new Set<string>();

  constructor(entries: AddressToWrite[]) {
    // Only when every entry names its town can the others be left out; one without could be in any.
    this.byTown = entries.every((entry) => entry.address.city);
    this.cities = this.byTown ? [...new Set(entries.map((entry) => entry.address.city as string))] : [];
    for (const { address } of entries) {
      const street = streetKey(address);
      const city = this.byTown ? (address.city ?? "") : "";
      if (address.numberLow === undefined) this.unnumberedStreets.add(street);
      else {
        this.numbered.set(`${street}|${address.numberLow}|${city}`, { street, low: address.numberLow, city });
        this.#numbers.add(`${street}|${address.numberLow}`);
      }
    }
  }

  /** Whether a stored row is one of those wanted: what the street index's seeks find. */
  has(row: { street: string; number_low: number | null; city: string | null }): boolean {
    if (row.number_low === null) {
      return (
        this.unnumberedStreets.has(row.street) && (!this.byTown || row.city === null || this.cities.includes(row.city))
      );
    }
    if (!this.byTown) return this.numbered.has(`${row.street}|${row.number_low}|`);
    if (row.city === null) return this.#numbers.has(`${row.street}|${row.number_low}`);
    return this.numbered.has(`${row.street}|${row.number_low}|${row.city}`);
  }
}

/**
 * The wanted rows among those the import wrote at the entries' places, read by id: a place's ids may include a row
 * of another place whose key hashed the same.
 */
async function rowsWritten(
  context: ImportContext,
  ownWrites: OwnWrites,
  entries: AddressToWrite[],
  wanted: WantedPlaces,
) {
  const ids = new Set(entries.flatMap((entry) => ownWrites.idsAt?.(entry.address) ?? []));
  if (ids.size === 0) return [];
  // One parameter whatever the count, so that every batch runs the same statement.
  const json = JSON.stringify([...ids]);
  const rows = await context.trx
    .selectFrom("addresses")
    .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
    .select(CANDIDATE_COLUMNS)
    .where(sql<boolean>`addresses.address_id in (select value from json_each(${json}))`)
    .where("datasets.namespace", "=", context.namespace)
    .execute();
  return rows.filter((row) => wanted.has(row)).sort((a, b) => a.address_id - b.address_id);
}

/**
 * The stored rows of the namespace at the wanted places. Each is a seek on the (street, number_low, city) index:
 * when the entries name their towns, the town is part of the seek — once for the entry's own town, once for rows
 * without one — instead of a filter over every town's rows.
 */
async function rowsAtNumbers(context: ImportContext, wanted: WantedPlaces) {
  const { byTown, cities, numbered, unnumberedStreets } = wanted;
  const inNamespace = <Q extends SelectQueryBuilder<Schema & { v: Wanted }, "addresses" | "datasets", object>>(
    query: Q,
  ) => query.select(CANDIDATE_COLUMNS).where("datasets.namespace", "=", context.namespace);
  // The wanted rows lead (SQLite keeps a CROSS JOIN's order): given 500 of them, its planner would rather scan the
  // table.
  const atNumbers = (city: "own town" | "none" | "any") =>
    context.trx
      .selectFrom(wantedRows(context.dialect, [...numbered.values()]).as("v"))
      .crossJoin("addresses")
      .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
      .whereRef("addresses.street", "=", "v.street")
      .whereRef("addresses.number_low", "=", "v.low")
      .$if(city === "own town", (q) => q.whereRef("addresses.city", "=", "v.city"))
      .$if(city === "none", (q) => q.where("addresses.city", "is", null))
      .$call(inNamespace);
  // Two statements, not a UNION ALL: PostgreSQL planned the union in parallel, and starting its workers took
  // longer than the seeks.
  const numberedRows =
    numbered.size === 0
      ? []
      : byTown
        ? [...(await atNumbers("own town").execute()), ...(await atNumbers("none").execute())]
        : await atNumbers("any").execute();
  const unnumbered =
    unnumberedStreets.size === 0
      ? []
      : await context.trx
          .selectFrom("addresses")
          .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
          .where("addresses.street", "in", [...unnumberedStreets])
          .where("addresses.number_low", "is", null)
          // A row of another town is never the same address.
          .$if(byTown, (q) =>
            q.where((eb) => eb.or([eb("addresses.city", "in", cities), eb("addresses.city", "is", null)])),
          )
          .$call(inNamespace)
          .execute();
  return [...numberedRows, ...unnumbered].sort((a, b) => a.address_id - b.address_id);
}

/**
 * The wanted rows as a table from one parameter per batch, so that every batch runs the same statement: a JSON
 * array read by `json_each` on SQLite (a VALUES list of each length was a statement of its own, and kept prepared
 * they took tens of megabytes), arrays spread by `unnest` on PostgreSQL (which plans a short text faster).
 */
function wantedRows(dialect: Dialect, rows: Wanted[]) {
  if (dialect === "sqlite") {
    const json = JSON.stringify(rows.map(({ street, low, city }) => [street, low, city]));
    return sql<Wanted>`(select value ->> 0 as street, value ->> 1 as low, value ->> 2 as city from json_each(${json}))`;
  }
  return sql<Wanted>`(select * from unnest(cast(${rows.map((row) => row.street)} as text[]),
    cast(${rows.map((row) => row.low)} as double precision[]), cast(${rows.map((row) => row.city)} as text[]))
    as wanted (street, low, city))`;
}

/** The address with the city, state and ZIP code it lacks taken from `other`. */
export function withLocalityOf(address: NormalizedAddress, other: NormalizedAddress): NormalizedAddress {
  const filled = { ...address };
  for (const field of ["city", "state", "postcode"] as const) {
    const value = address[field] ?? other[field];
    if (value !== undefined) filled[field] = value;
  }
  return filled;
}

function placeKey(address: NormalizedAddress): string {
  return [streetKey(address), address.number ?? "", address.unit ?? address.unitType ?? ""].join("|");
}

function localitiesAgree(a: NormalizedAddress, b: NormalizedAddress): boolean {
  return (["city", "state", "postcode"] as const).every(
    (field) => a[field] === undefined || b[field] === undefined || a[field] === b[field],
  );
}

function samePlace(
  row: { parcel_id: number | null; lon: number; lat: number },
  entry: Pick<AddressToWrite, "parcelId" | "point">,
): boolean {
  if (row.parcel_id !== null && row.parcel_id === entry.parcelId) return true;
  return geodesicDistance([row.lon, row.lat], entry.point) <= SAME_PLACE_M;
}
