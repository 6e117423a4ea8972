import type { NormalizedAddress } from "../address/index.js";
import { PlaceHash } from "./place-hash.js";

/** Rows the tables first have room for; they grow by half each time they fill. */
const FIRST_CAPACITY = 1 << 16;
/** Rows a bucket holds on average before the buckets double. */
const ROWS_PER_BUCKET = 2;

/**
 * The rows an address import has written, by street, house number, unit and town, when they are all the rows it
 * could match: the import numbers its rows itself (the first `firstId`, the next one more, …), so the table keeps no
 * id, only each row's hash and the next row of its bucket: 8 bytes a row (12 while the arrays have room to grow), and
 * 2 to 4 a row for the buckets. It stands in for the street index while a first load goes without it
 * (`first-address-load.ts`).
 *
 * A row is kept under its own town (or none): an address naming its town finds the rows there and those without a
 * town, as the street index's seeks do. An address naming none may be any town's: {@link answers} says whether
 * this table can find those.
 */
export class WrittenRows {
  readonly firstId: number;
  #hashes = new Int32Array(FIRST_CAPACITY);
  /** Each row's next in its bucket, as its number plus one: 0 ends the bucket. */
  #next = new Int32Array(FIRST_CAPACITY);
  /** Each bucket's first row, as its number plus one. */
  #buckets = new Int32Array(FIRST_CAPACITY / ROWS_PER_BUCKET);
  /** How far a hash's product is shifted to give its bucket: 32 less the buckets' bits. */
  #bucketShift = 32 - Math.log2(FIRST_CAPACITY / ROWS_PER_BUCKET);
  #count = 0;
  #rowsWithTown = false;
  /** Whether a row naming no town was written: until one is, an address naming its town has only its town to seek. */
  #rowsWithoutTown = false;
  readonly #hash = new PlaceHash();
  readonly #place = new PlaceHash();

  constructor(firstId: number) {
    this.firstId = firstId;
  }

  get count(): number {
    return this.#count;
  }

  /** Notes a row written with the address, and answers the row's id. */
  add(address: NormalizedAddress): number {
    if (this.#count === this.#hashes.length) this.#grow();
    if (this.#count >= this.#buckets.length * ROWS_PER_BUCKET) this.#rebucket(this.#buckets.length * 2);
    const row = this.#count++;
    this.#place.startPlace(address);
    const hash = this.#keyIn(address.city ?? "");
    this.#hashes[row] = hash;
    this.#link(row, hash);
    if (address.city !== undefined) this.#rowsWithTown = true;
    else this.#rowsWithoutTown = true;
    return this.firstId + row;
  }

  /** Whether {@link idsAt} holds every row an address may be the same as: a row in any town, for one naming none. */
  answers(address: NormalizedAddress): boolean {
    return address.city !== undefined || !this.#rowsWithTown;
  }

  /**
   * The ids of the rows written at the address's street, number and unit, in its town or without one (or, for an
   * address naming no town, the rows without one: see {@link answers}). A few may be rows of another place whose key
   * hashed the same: the caller compares the rows it reads.
   */
  idsAt(address: NormalizedAddress): number[] {
    const ids: number[] = [];
    this.#place.startPlace(address);
    this.#find(this.#keyIn(address.city ?? ""), ids);
    if (address.city !== undefined && this.#rowsWithoutTown) this.#find(this.#keyIn(""), ids);
    return ids;
  }

  /** Whether any row was written at the address's place: {@link idsAt} without the list. */
  mayHold(address: NormalizedAddress): boolean {
    this.#place.startPlace(address);
    if (this.#find(this.#keyIn(address.city ?? ""))) return true;
    return address.city !== undefined && this.#rowsWithoutTown && this.#find(this.#keyIn(""));
  }

  /** The key of the place last started (its street, number and unit, hashed once for both towns' keys), in `town`. */
  #keyIn(town: string): number {
    return this.#hash.copy(this.#place).mix(town).a;
  }

  #bucketOf(hash: number): number {
    // Fibonacci hashing: the product's top bits, as many as the buckets need.
    return Math.imul(hash, 0x9e3779b1) >>> this.#bucketShift;
  }

  #link(row: number, hash: number): void {
    const bucket = this.#bucketOf(hash);
    this.#next[row] = this.#buckets[bucket] as number;
    this.#buckets[bucket] = row + 1;
  }

  /** Whether a row of key `hash` was written; with `ids`, adds every such row's id to it. */
  #find(hash: number, ids?: number[]): boolean {
    let found = false;
    for (let next = this.#buckets[this.#bucketOf(hash)] as number; next !== 0; next = this.#next[next - 1] as number) {
      if (this.#hashes[next - 1] !== hash) continue;
      if (!ids) return true;
      ids.push(this.firstId + next - 1);
      found = true;
    }
    return found;
  }

  #grow(): void {
    const capacity = Math.ceil(this.#hashes.length * 1.5);
    const hashes = new Int32Array(capacity);
    hashes.set(this.#hashes);
    this.#hashes = hashes;
    const next = new Int32Array(capacity);
    next.set(this.#next);
    this.#next = next;
  }

  #rebucket(count: number): void {
    this.#buckets = new Int32Array(count);
    this.#bucketShift = 32 - Math.log2(count);
    for (let row = 0; row < this.#count; row++) this.#link(row, this.#hashes[row] as number);
  }
}
