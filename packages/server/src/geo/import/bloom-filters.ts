/** Two 32-bit hashes of a key: the first picks the key's block of a filter, the second its bits there. */
export interface HashedKey {
  readonly a: number;
  readonly b: number;
}

/** Bits a key in each filter: a full filter takes some 0.1 % of keys never added for added. */
const BITS_PER_KEY = 16;
/** Keys the first filter holds; each next one, twice as many as the one before. */
const FIRST_CAPACITY = 1 << 16;

/**
 * Bytes the filters take at most: some 8.3 M keys. At 10.5 M the filters took 33 MB, and a building import's peak
 * passed the 300 MB every import keeps within (302 MB).
 */
const MOST_BYTES = 16 * 1024 * 1024;

/**
 * Keys an import has written, as Bloom filters: "maybe" for every key added, and for about 1 % of the others. A
 * filter that fills is followed by one twice its size, so that a county's file takes little and a state's 2 to 4
 * bytes a key. Bounded whatever the file's size: once another filter would pass {@link MOST_BYTES}, the filters
 * are let go and every key is "maybe" from then on, which the callers look up instead (in the database).
 */
export class BloomFilters {
  #filters: BloomFilter[] = [new BloomFilter(FIRST_CAPACITY)];
  #bytes = BloomFilter.bytesFor(FIRST_CAPACITY);
  readonly #mostBytes: number;
  /** Past the bound: every key may have been added. */
  #full = false;

  /** `mostBytes` bounds the filters (smaller in tests). */
  constructor(mostBytes = MOST_BYTES) {
    this.#mostBytes = mostBytes;
  }

  add(key: HashedKey): void {
    if (this.#full) return;
    let last = this.#filters[this.#filters.length - 1] as BloomFilter;
    if (last.full) {
      const capacity = last.capacity * 2;
      this.#bytes += BloomFilter.bytesFor(capacity);
      if (this.#bytes > this.#mostBytes) {
        this.#full = true;
        this.#filters = [];
        return;
      }
      last = new BloomFilter(capacity);
      this.#filters.push(last);
    }
    last.add(key);
  }

  has(key: HashedKey): boolean {
    if (this.#full) return true;
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
    this.#blocks = BloomFilter.#blocksFor(capacity);
    this.#words = new Int32Array(this.#blocks * BLOCK_WORDS);
  }

  static bytesFor(capacity: number): number {
    return BloomFilter.#blocksFor(capacity) * BLOCK_WORDS * Int32Array.BYTES_PER_ELEMENT;
  }

  static #blocksFor(capacity: number): number {
    return Math.ceil((capacity * BITS_PER_KEY) / (BLOCK_WORDS * 32));
  }

  get full(): boolean {
    return this.#count >= this.capacity;
  }

  add(key: HashedKey): void {
    const words = this.#words;
    const first = this.#blockStart(key);
    for (let i = 0; i < BLOCK_WORDS; i++) {
      words[first + i] = (words[first + i] as number) | (1 << (Math.imul(key.b, WORD_SALTS[i] as number) >>> 27));
    }
    this.#count += 1;
  }

  has(key: HashedKey): boolean {
    const words = this.#words;
    const first = this.#blockStart(key);
    for (let i = 0; i < BLOCK_WORDS; i++) {
      if (((words[first + i] as number) & (1 << (Math.imul(key.b, WORD_SALTS[i] as number) >>> 27))) === 0)
        return false;
    }
    return true;
  }

  /** The first word of the key's block: its first hash scaled to the count of blocks. */
  #blockStart(key: HashedKey): number {
    return Math.floor(((key.a >>> 0) / 0x1_0000_0000) * this.#blocks) * BLOCK_WORDS;
  }
}
