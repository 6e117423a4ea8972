import { type Kysely, sql } from "kysely";
import type { Schema } from "../../db/schema.js";
import { type NormalizedAddress, normalizeAddress, scoreCandidate, streetKey } from "../address/index.js";
import { storedAddress } from "../store/address-line.js";
import type { GeoSource } from "../store/spatial-filter.js";
import { type AddressCandidate, toCandidate } from "./address-candidate.js";

/** Candidates scoring below this are not offered at all. */
export const MIN_SCORE = 0.3;
const DIRECTIONALS = ["N", "S", "E", "W", "NE", "NW", "SE", "SW"];
/** How many rows a lookup scores at most. */
const FUZZY_ROWS = 500;
/** How many rows at one house number are scored when the query names no unit there. */
const UNITS_SCORED = 20;
/** House numbers this close are offered when the exact one is not on the street. */
const NEARBY_NUMBERS = 100;

/**
 * Matches a one-line US address against the imported addresses: the exact normalized street first; when it has
 * no row and `fuzzy` is on, streets sharing the first letters of its name (a typo in the suffix or the name's end). Candidates come
 * back best first, each with its score, location and parcel.
 */
export async function locateAddress(
  { db }: GeoSource,
  text: string,
  limit = 5,
  { fuzzy = true } = {},
): Promise<AddressCandidate[]> {
  const query = normalizeAddress(text);
  if (!query) return [];
  let rows = await onStreet(db, streetKey(query), query);
  if (rows.length === 0 && fuzzy) {
    // Streets starting like the query's name, with or without a leading directional the query may lack.
    const start = query.street.slice(0, 3);
    const prefixes = [start, ...DIRECTIONALS.map((directional) => `${directional} ${start}`)];
    rows = await db
      .selectFrom("addresses")
      .selectAll()
      .where((eb) =>
        eb.or(prefixes.map((prefix) => eb.and([eb("street", ">=", prefix), eb("street", "<", `${prefix}\uffff`)]))),
      )
      .limit(FUZZY_ROWS)
      .execute();
  }
  return rows
    .map((row) => ({ row, score: scoreCandidate(query, storedAddress(row)) }))
    .filter((hit) => hit.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || a.row.address_id - b.row.address_id)
    .slice(0, limit)
    .map((hit) => toCandidate(hit.row, hit.score));
}

/**
 * The rows of one street worth scoring, narrowest first, all through the (street, number_low, city) index: those
 * whose number or range holds the query's; else numbers near it; else the street's first rows. Each step takes the
 * rows of the query's town (or ZIP code) first: on a state's data one street and number recur in many towns, and a
 * limit must not leave the town asked for out.
 */
async function onStreet(db: Kysely<Schema>, street: string, query: NormalizedAddress) {
  const base = db.selectFrom("addresses").selectAll().where("street", "=", street);
  const town = locality(query);
  const townFirst = (rows: typeof base) =>
    town ? rows.orderBy(sql`case when ${sql.ref(town.column)} = ${town.value} then 0 else 1 end`) : rows;
  const { numberLow: low, numberHigh: high = low } = query;
  if (low !== undefined && high !== undefined) {
    const holding = base.where("number_low", "<=", high).where("number_high", ">=", low);
    // A tower of condominiums has hundreds of units at one number: the unit asked for, else the building's own
    // row and a handful of units, are enough to score.
    if (query.unit !== undefined) {
      const unit = await townFirst(holding.where("unit", "=", query.unit))
        .limit(FUZZY_ROWS)
        .execute();
      if (unit.length > 0) return unit;
    }
    const building = await townFirst(holding)
      .orderBy("unit", (order) => order.asc().nullsFirst())
      .orderBy("address_id")
      .limit(UNITS_SCORED)
      .execute();
    if (building.length > 0) return building;
    const near = await townFirst(
      base.where("number_low", ">=", low - NEARBY_NUMBERS).where("number_low", "<=", high + NEARBY_NUMBERS),
    )
      .limit(FUZZY_ROWS)
      .execute();
    if (near.length > 0) return near;
  }
  if (town) {
    const inTownRows = await base.where(town.column, "=", town.value).limit(FUZZY_ROWS).execute();
    if (inTownRows.length > 0) return inTownRows;
  }
  return base.limit(FUZZY_ROWS).execute();
}

/** The town the query names, else its ZIP code: what tells one town's Main Street from another's. */
function locality(query: NormalizedAddress): { column: "city" | "postcode"; value: string } | undefined {
  if (query.city !== undefined) return { column: "city", value: query.city };
  if (query.postcode !== undefined) return { column: "postcode", value: query.postcode };
  return undefined;
}
