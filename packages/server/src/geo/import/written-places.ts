import type { NormalizedAddress } from "../address/index.js";
import { BloomFilters } from "./bloom-filters.js";
import { ANY_TOWN, PlaceHash } from "./place-hash.js";

/**
 * The streets, house numbers and units an address import has written so far, for the import to know which
 * addresses of a batch cannot have a stored row to match (`same-address.ts`) when the namespace held no addresses
 * before it: those need no seek on the street index. A state's first file is millions of addresses, nearly all
 * new; a seek each cost the main thread a fifth of its time. Used on PostgreSQL: a first load on SQLite goes without
 * the index and keeps the rows it wrote instead (`first-address-load.ts`).
 *
 * Kept as {@link BloomFilters}, two keys an address: those of the 1 % or so never written that the filters take
 * for written are then looked up as before.
 */
export class WrittenPlaces {
  readonly #filters = new BloomFilters();
  readonly #hash = new PlaceHash();
  readonly #place = new PlaceHash();

  /** Notes an address written: its street, number and unit, in its town and in any town. */
  add(address: NormalizedAddress): void {
    this.#place.startPlace(address);
    this.#filters.add(this.#hash.copy(this.#place).mix(address.city ?? ""));
    this.#filters.add(this.#hash.copy(this.#place).mix(ANY_TOWN));
  }

  /**
   * Whether a row at the address's street, number and unit may have been written: in its town or without one, for
   * an address naming its town; in any town, for one that does not (it can be the same as any of them).
   */
  mayHold(address: NormalizedAddress): boolean {
    this.#place.startPlace(address);
    if (address.city === undefined) return this.#filters.has(this.#hash.copy(this.#place).mix(ANY_TOWN));
    return (
      this.#filters.has(this.#hash.copy(this.#place).mix(address.city)) ||
      this.#filters.has(this.#hash.copy(this.#place).mix(""))
    );
  }
}
