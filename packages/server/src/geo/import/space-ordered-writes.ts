import type { BBox } from "../types.js";
import type { ImportContext } from "./run-import.js";

/**
 * How much is held back before it is sorted: rows, and bytes of their stored geometry. Rows are held with their
 * geometry packed as stored, so a window puts a city's buildings in space order, whatever the file's order, for a
 * few megabytes; the bytes bound a file of large parcels.
 */
const WINDOW_ROWS = 16_384;
const WINDOW_BYTES = 8 * 1024 * 1024;

/**
 * Sorted rows written per batch: more than a batch brings (500), so a sorted window is written before the next one
 * fills. Written all at once, a window kept the import's threads idle while the main thread wrote it: a building
 * import at 77 tiles took a quarter longer.
 */
const WRITTEN_PER_BATCH = 1024;

interface Held<Row> {
  key: number;
  row: Row;
  sourceId: string;
}

/**
 * An import's new and changed rows, held back and written in the order of a Hilbert curve through their boxes'
 * middles rather than the file's. A table's rows lie in the order they were written, and an order reads a lot's
 * neighbours by the spatial index: some eighty buildings within 100 m of each structure. Written in a file's
 * order (Cambridge's is none: one building to the next is 1.7 km on average), those rows lie on as many pages, each
 * read from disk when it is not in memory; written in space order, on a few.
 *
 * Rows fill a window; a full window is sorted and written a part with each batch after ({@link writeSome}) while
 * the next one fills, so that writing keeps pace with the threads preparing batches. Everything else sees the
 * import as before: a batch that reads stored rows of ids held here (a parcel's pieces in two batches, united) has
 * them written first ({@link writeHeld}), and whatever is held is written before the import's end work
 * ({@link writeAll}).
 */
export class SpaceOrderedWrites<Row> {
  readonly #write: (context: ImportContext, rows: Row[]) => Promise<void>;
  /** The window filling, in the file's order. */
  #filling: Array<Held<Row>> = [];
  #fillingBytes = 0;
  /** A full window sorted, being written from its start. */
  #sorted: Array<Held<Row>> = [];
  #written = 0;
  /** The source ids of every row held, filling or sorted. */
  readonly #ids = new Set<string>();
  readonly #window: { rows: number; bytes: number; writtenPerBatch: number };

  /** `write` stores rows, in the order given; `window` says how much is held (less in tests). */
  constructor(
    write: (context: ImportContext, rows: Row[]) => Promise<void>,
    window = { rows: WINDOW_ROWS, bytes: WINDOW_BYTES, writtenPerBatch: WRITTEN_PER_BATCH },
  ) {
    this.#write = write;
    this.#window = window;
  }

  /** Holds a row of source id `sourceId` whose geometry has box `box` and takes `bytes` stored. */
  hold(row: Row, sourceId: string, [minLon, minLat, maxLon, maxLat]: BBox, bytes: number): void {
    const key = hilbertIndex((minLon + maxLon) / 2, (minLat + maxLat) / 2);
    this.#filling.push({ key, row, sourceId });
    this.#fillingBytes += bytes;
    this.#ids.add(sourceId);
  }

  /** After a batch: sorts the window once it is full and none is being written, and writes the next part. */
  async writeSome(context: ImportContext): Promise<void> {
    const full = this.#filling.length >= this.#window.rows || this.#fillingBytes >= this.#window.bytes;
    if (full && this.#written === this.#sorted.length) this.#sortFilling();
    await this.#writeSorted(context, this.#window.writtenPerBatch);
  }

  /** Writes what is held if any of it has one of `sourceIds`, so that reads of those ids find them stored. */
  async writeHeld(context: ImportContext, sourceIds: Iterable<string>): Promise<void> {
    for (const id of sourceIds) {
      if (this.#ids.has(id)) return this.writeAll(context);
    }
  }

  /** Writes everything held: the sorted window's rest, then the filling one sorted. */
  async writeAll(context: ImportContext): Promise<void> {
    await this.#writeSorted(context, Number.POSITIVE_INFINITY);
    this.#sortFilling();
    await this.#writeSorted(context, Number.POSITIVE_INFINITY);
  }

  #sortFilling(): void {
    this.#sorted = this.#filling.sort((a, b) => a.key - b.key);
    this.#written = 0;
    this.#filling = [];
    this.#fillingBytes = 0;
  }

  async #writeSorted(context: ImportContext, most: number): Promise<void> {
    const part = this.#sorted.slice(this.#written, this.#written + most);
    if (part.length === 0) return;
    this.#written += part.length;
    if (this.#written === this.#sorted.length) {
      this.#sorted = [];
      this.#written = 0;
    }
    for (const held of part) this.#ids.delete(held.sourceId);
    await this.#write(
      context,
      part.map((held) => held.row),
    );
  }
}

/** Cells per side of the grid the curve runs through: 2²⁴, some 2.4 m of longitude at the equator. */
const GRID_BITS = 24;

/**
 * The distance along a Hilbert curve through a 2^`bits`-square grid over the world to the cell holding
 * (`lon`, `lat`): cells near each other on the curve are near each other on the ground. An integer below 2⁴⁸ for
 * the default grid, exact as a double.
 */
export function hilbertIndex(lon: number, lat: number, bits = GRID_BITS): number {
  const side = 2 ** bits;
  let x = Math.min(side - 1, Math.max(0, Math.floor(((lon + 180) / 360) * side)));
  let y = Math.min(side - 1, Math.max(0, Math.floor(((lat + 90) / 180) * side)));
  let index = 0;
  for (let s = side / 2; s >= 1; s /= 2) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    index += s * s * ((3 * rx) ^ ry);
    // Turn the quadrant so that the curve within it joins the next one.
    if (ry === 0) {
      if (rx === 1) {
        x = side - 1 - x;
        y = side - 1 - y;
      }
      [x, y] = [y, x];
    }
  }
  return index;
}
