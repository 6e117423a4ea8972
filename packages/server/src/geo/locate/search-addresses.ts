import { parseQuery } from "../address/index.js";
import type { GeoSource } from "../store/spatial-filter.js";
import { type AddressCandidate, toCandidate } from "./address-candidate.js";
import { locateAddress } from "./locate-address.js";

/** How many street readings of a half-typed query are looked up. */
const MAX_PREFIXES = 5;
/** A full match scores at least this; completions of half-typed text score below it. */
const FULL_MATCH = 0.9;
const COMPLETION = { numberTyped: 0.8, numberMissing: 0.6 };

/**
 * Autocomplete: the addresses the typed text may become. Text that already names an address finds it first (as
 * {@link locateAddress} scores it); then completions by street prefix (an index range scan on the normalized
 * street), narrowed to the house number when one is typed, in street and number order.
 */
export async function searchAddresses(source: GeoSource, text: string, limit = 5): Promise<AddressCandidate[]> {
  const full = (await locateAddress(source, text, limit, { fuzzy: false })).filter(
    (candidate) => candidate.score >= FULL_MATCH,
  );
  const query = parseQuery(text);
  const seen = new Set(full.map((candidate) => candidate.address_id));
  const completions: AddressCandidate[] = [];
  for (const prefix of query.streetPrefixes.slice(0, MAX_PREFIXES)) {
    let rows = source.db
      .selectFrom("addresses")
      .selectAll()
      .where("street", ">=", prefix)
      .where("street", "<", `${prefix}\uffff`);
    const typedNumber = query.number;
    const numeric = query.numberLow;
    if (typedNumber !== undefined) {
      rows = rows.where((eb) =>
        eb.or([
          eb.and([eb("number", ">=", typedNumber), eb("number", "<", `${typedNumber}\uffff`)]),
          ...(numeric === undefined
            ? []
            : [eb.and([eb("number_low", "<=", numeric), eb("number_high", ">=", numeric)])]),
        ]),
      );
    }
    const found = await rows
      .orderBy("street")
      .orderBy("number_low")
      .orderBy("address_id")
      .limit(limit * 4)
      .execute();
    for (const row of found) {
      if (seen.has(row.address_id)) continue;
      seen.add(row.address_id);
      completions.push(toCandidate(row, typedNumber === undefined ? COMPLETION.numberMissing : COMPLETION.numberTyped));
    }
  }
  return [...full, ...completions].slice(0, limit);
}
