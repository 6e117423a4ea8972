import type { NormalizedAddress } from "../address/index.js";
import { ANY_TOWN, PlaceHash } from "./place-hash.js";

/** Bits a key in each filter: a full filter takes some 0.1 % of keys never added for added. */
const BITS_PER_KEY = 16;
/** Keys the first filter holds; each next one, twice as many as the one before. */
const FIRST_CAPACITY = 1 << 16;

/**
 * The streets and house numbers an address import has written so far, for the import to know which addresses of a
 * batch cannot have a stored row to match (`same-address.ts`) when the namespace held no addresses before it: those
 * need no seek on the street index. A state's first file is millions of addresses, nearly all new; a seek each
 * cost the main thread a fifth of its time. Used on PostgreSQL: a first load on SQLite goes without the index and
 * keeps the rows it wrote instead (`first-address-load.ts`).
 *
 * Kept as Bloom filters, 4 bytes an address (two keys) and up to twice that while a filter fills: "maybe" for
 * every place written, and for about 1 % of those never written, which are then looked up as before. A filter that
 * fills is followed by one twice its size.
 */
export class WrittenPlaces {
  readonly #filters: BloomFilter[] = [new BloomFilter(FIRST_CAPACITY)];
  readonly #hash = new PlaceHash();
  readonly #place = new PlaceHash();

  /** Notes an address written: its street and number, in its town and in any town. */
  add(address: NormalizedAddress): void {
    this.#place.startPlace(address);
    this.#add(this.#hash.copy(this.#place).mix(address.city ?? ""));
    this.#add(this.#hash.copy(this.#place).mix(ANY_TOWN));
  }

  /**
   * Whether a row at the address's street and number may have been written: in its town or without one, for an
   * address naming its town; in any town, for one that does not (it can be the same as any of them).
   */
  mayHold(address: NormalizedAddress): boolean {
    this.#place.startPlace(address);
    if (address.city === undefined) return this.#has(this.#hash.copy(this.#place).mix(ANY_TOWN));
    return this.#has(this.#hash.copy(this.#place).mix(address.city)) || this.#has(this.#hash.copy(this.#place).mix(""));
  }

  #add(key: PlaceHash): void {
    let last = this.#filters[this.#filters.length - 1] as BloomFilter;
    if (last.full) {
      last = new BloomFilter(last.capacity * 2);
      this.#filters.push(last);
    }
    last.add(key);
  }

  #has(key: PlaceHash): boolean {
    for (const filter of this.#filters) if (filter.has(key)) return true;
    return false;
  }
}

/**
 * Odd multipliers, one for each word of a block: each spreads the key's second hash differently, and its top five
 * bits pick the bit of that word.
 */
const WORD_SALTS = Int32Array.of(
  0x2545f491,
  0x4f6cdd1d,
  0x9e3779b1,
  0x85ebca77,
  0xc2b2ae3d,
  0x27d4eb2f,
  0x165667b1,
  0xd3a2646d,
);
/** Words in a block: one bit is set in each, so a key costs one cache line rather than a line a bit. */
const BLOCK_WORDS = WORD_SALTS.length;

/**
 * A Bloom filter for a given number of keys, split into blocks of 256 bits: the first hash picks a key's block and
 * the second its bit in each of the block's eight words. A filter of millions of keys is larger than the
 * processor's caches: with a key's bits anywhere in it, each bit asked was a read from memory, and asking for and
 * adding an address's keys took 1.4 µs; in one block, 0.75 µs.
 */
class BloomFilter {
  readonly capacity: number;
  readonly #words: Int32Array;
  readonly #blocks: number;
  #count = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#blocks = Math.ceil((capacity * BITS_PER_KEY) / (BLOCK_WORDS * 32));
    this.#words = new Int32Array(this.#blocks * BLOCK_WORDS);
  }

  get full(): boolean {
    return this.#count >= this.capacity;
  }

  add(key: PlaceHash): void {
    const words = this.#words;
    const first = this.#blockStart(key);
    for (let i = 0; i < BLOCK_WORDS; i++) {
      words[first + i] = (words[first + i] as number) | (1 << (Math.imul(key.b, WORD_SALTS[i] as number) >>> 27));
    }
    this.#count += 1;
  }

  has(key: PlaceHash): boolean {
    const words = this.#words;
    const first = this.#blockStart(key);
    for (let i = 0; i < BLOCK_WORDS; i++) {
      if (((words[first + i] as number) & (1 << (Math.imul(key.b, WORD_SALTS[i] as number) >>> 27))) === 0)
        return false;
    }
    return true;
  }

  /** The first word of the key's block: its first hash scaled to the count of blocks. */
  #blockStart(key: PlaceHash): number {
    return Math.floor(((key.a >>> 0) / 0x1_0000_0000) * this.#blocks) * BLOCK_WORDS;
  }
}
