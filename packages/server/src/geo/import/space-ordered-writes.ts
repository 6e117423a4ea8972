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
  /** Written ahead of its window, for a batch that read its id back ({@link SpaceOrderedWrites.writeHeld}). */
  writtenAhead?: true;
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
 * those rows written first ({@link writeHeld}), and whatever is held is written before the import's end work
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
  /** Every row held, filling or sorted, by source id. */
  readonly #held = new Map<string, Held<Row>>();
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
    const held = { key: hilbertIndex((minLon + maxLon) / 2, (minLat + maxLat) / 2), row, sourceId };
    this.#filling.push(held);
    this.#fillingBytes += bytes;
    this.#held.set(sourceId, held);
  }

  /** After a batch: sorts the window once it is full and none is being written, and writes the next part. */
  async writeSome(context: ImportContext): Promise<void> {
    const full = this.#filling.length >= this.#window.rows || this.#fillingBytes >= this.#window.bytes;
    if (full && this.#written === this.#sorted.length) this.#sortFilling();
    await this.#writeSorted(context, this.#window.writtenPerBatch);
  }

  /**
   * Writes the rows held of `sourceIds` now, so that reads of those ids find them stored; the rest stay in their
   * windows. A parcel file names a lot's pieces far apart: writing everything held whenever a batch named one, the
   * 20-tile parcel import wrote nearly all its rows so, in 41 bursts of some 6,000 while its thread waited.
   */
  async writeHeld(context: ImportContext, sourceIds: Iterable<string>): Promise<void> {
    const ahead: Array<Held<Row>> = [];
    for (const id of sourceIds) {
      const held = this.#held.get(id);
      if (!held) continue;
      this.#held.delete(id);
      held.writtenAhead = true;
      ahead.push(held);
    }
    if (ahead.length === 0) return;
    ahead.sort((a, b) => a.key - b.key);
    await this.#write(
      context,
      ahead.map((held) => held.row),
    );
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
    const rows: Row[] = [];
    for (const held of part) {
      if (held.writtenAhead) continue;
      this.#held.delete(held.sourceId);
      rows.push(held.row);
    }
    if (rows.length > 0) await this.#write(context, rows);
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
