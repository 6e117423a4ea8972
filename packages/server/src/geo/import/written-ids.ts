import { BloomFilters } from "./bloom-filters.js";
import { PlaceHash } from "./place-hash.js";

/**
 * The source ids a parcel or building import has written so far, when its dataset held nothing before it: only
 * those can have a stored row for a later record to merge into, so the others of a batch are not looked up. A
 * state's first file is a million ids, nearly all new; looking up a batch's ids that no row has took 2.2–2.6 s for
 * a million, by the unique index of dataset and source id, on the main thread of an import it sets the pace of.
 * Kept as {@link BloomFilters}: the 1 % or so of ids never written that the filters take for written are looked up.
 */
export class WrittenIds {
  readonly #filters = new BloomFilters();
  readonly #hash = new PlaceHash();

  add(id: string): void {
    this.#filters.add(this.#hash.start().mix(id));
  }

  /** Whether a row of `id` may have been written; false only for an id never added. */
  mayHold(id: string): boolean {
    return this.#filters.has(this.#hash.start().mix(id));
  }
}
