import { type SelectQueryBuilder, sql } from "kysely";
import type { Schema } from "../../db/schema.js";
import { type NormalizedAddress, streetKey } from "../address/index.js";
import { geodesicDistance } from "../geometry/index.js";
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

/** A stored row that is the same address as one being imported. */
export interface StoredAddress {
  addressId: number;
  datasetId: number;
  datasetName: string;
  key: string;
  address: NormalizedAddress;
}

/**
 * The stored addresses (of the import's namespace) that are the same as each of `entries`, by position: the same
 * number, street and unit, and no city, state or ZIP code that disagrees — `75 WINTER ST` and
 * `75 WINTER ST, CAMBRIDGE, MA` are one address. Within the import's own dataset that is enough, as it is for equal
 * keys; a row of another dataset must also be at the same place (the same parcel, or within {@link SAME_PLACE_M}).
 * An exact match of the address key in the import's own dataset comes first: the upsert handles those.
 */
export async function storedSameAddresses(
  context: ImportContext,
  entries: AddressToWrite[],
): Promise<Array<StoredAddress | undefined>> {
  if (entries.length === 0) return [];
  // Only when every entry names its town can the others be left out; one without could be in any.
  const cities = entries.every((entry) => entry.address.city)
    ? [...new Set(entries.map((entry) => entry.address.city as string))]
    : [];
  const rows = await rowsAtNumbers(context, entries, cities);
  const ownKeys = new Set(rows.filter((row) => row.dataset_id === context.datasetId).map((row) => row.address_key));
  // This dataset's rows first, so that an address already in it is updated rather than called a duplicate.
  const byPlace = new Map<string, Array<Candidate & { address: NormalizedAddress }>>();
  const ordered = [...rows].sort(
    (a, b) => Number(b.dataset_id === context.datasetId) - Number(a.dataset_id === context.datasetId),
  );
  for (const row of ordered) {
    const address = JSON.parse(row.normalized) as NormalizedAddress;
    const key = placeKey(address);
    byPlace.set(key, [...(byPlace.get(key) ?? []), { ...row, address }]);
  }
  return entries.map((entry) => {
    if (ownKeys.has(entry.key)) return undefined;
    const same = byPlace
      .get(placeKey(entry.address))
      ?.find(
        (row) =>
          localitiesAgree(row.address, entry.address) &&
          (row.dataset_id === context.datasetId || samePlace(row, entry)),
      );
    return same
      ? {
          addressId: same.address_id,
          datasetId: same.dataset_id,
          datasetName: same.name,
          key: same.address_key,
          address: same.address,
        }
      : undefined;
  });
}

type Candidate = Awaited<ReturnType<typeof rowsAtNumbers>>[number];
/** A street and house number looked for, as a row of a VALUES list. */
type Pair = { column1: string; column2: number };
const CANDIDATE_COLUMNS = [
  "addresses.address_id",
  "addresses.dataset_id",
  "datasets.name",
  "addresses.address_key",
  "addresses.normalized",
  "addresses.parcel_id",
  "addresses.lon",
  "addresses.lat",
] as const;

/**
 * The stored rows of the namespace at the entries' streets and house numbers, in `cities` (or none) when given.
 * Each entry is a seek on the (street, number_low, city) index: on a state's file the same street recurs in every
 * town, and reading whole streets made each batch's work grow with the state. A number that is not numeric
 * (`A`) has no `number_low`: those entries read their streets' rows without one.
 */
async function rowsAtNumbers(context: ImportContext, entries: AddressToWrite[], cities: string[]) {
  const numbered = new Map<string, [string, number]>();
  const unnumberedStreets = new Set<string>();
  for (const { address } of entries) {
    const street = streetKey(address);
    if (address.numberLow === undefined) unnumberedStreets.add(street);
    else numbered.set(`${street}|${address.numberLow}`, [street, address.numberLow]);
  }
  const sameTown = (query: SelectQueryBuilder<Schema & { v: Pair }, "addresses" | "datasets", object>) =>
    query
      .select(CANDIDATE_COLUMNS)
      .where("datasets.namespace", "=", context.namespace)
      // A row of another town is never the same address.
      .$if(cities.length > 0, (q) =>
        q.where((eb) => eb.or([eb("addresses.city", "in", cities), eb("addresses.city", "is", null)])),
      );
  const pairs = sql.join(
    [...numbered.values()].map(([street, low]) => sql`(${street}, cast(${low} as double precision))`),
  );
  // The pairs lead (SQLite keeps a CROSS JOIN's order): given 500 of them, its planner would rather scan the table.
  const atNumbers =
    numbered.size === 0
      ? []
      : await context.trx
          .selectFrom(sql<Pair>`(values ${pairs})`.as("v"))
          .crossJoin("addresses")
          .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
          .whereRef("addresses.street", "=", "v.column1")
          .whereRef("addresses.number_low", "=", "v.column2")
          .$call(sameTown)
          .execute();
  const unnumbered =
    unnumberedStreets.size === 0
      ? []
      : await context.trx
          .selectFrom("addresses")
          .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
          .where("addresses.street", "in", [...unnumberedStreets])
          .where("addresses.number_low", "is", null)
          .$call(sameTown)
          .execute();
  return [...atNumbers, ...unnumbered].sort((a, b) => a.address_id - b.address_id);
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
