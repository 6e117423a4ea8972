import type { BBox } from "../types.js";
import type { ImportContext } from "./run-import.js";

/**
 * How much is held back at most: rows, and bytes of their stored geometry. Rows are held with their geometry packed
 * as stored, so a window puts a city's buildings in space order, whatever the file's order, for a few megabytes;
 * the bytes bound a file of large parcels.
 */
const WINDOW_ROWS = 16_384;
const WINDOW_BYTES = 8 * 1024 * 1024;

/**
 * An import's new and changed rows, held back and written in the order of a Hilbert curve through their boxes'
 * middles rather than the file's. A table's rows lie in the order they were written, and an order reads a lot's
 * neighbours by the spatial index: some eighty buildings within 100 m of each structure. Written in a file's
 * order (Cambridge's is none: one building to the next is 1.7 km on average), those rows lie on as many pages, each
 * read from disk when it is not in memory; written in space order, on a few.
 *
 * Everything else sees the import as before: a batch that reads stored rows of ids held here (a parcel's pieces
 * in two batches, united) has them written first ({@link writeHeld}), and whatever is held is written before the
 * import's end work ({@link writeAll}).
 */
export class SpaceOrderedWrites<Row> {
  readonly #write: (context: ImportContext, rows: Row[]) => Promise<void>;
  #held: Array<{ key: number; row: Row }> = [];
  readonly #ids = new Set<string>();
  #bytes = 0;

  /** `write` stores rows, in the order given. */
  constructor(write: (context: ImportContext, rows: Row[]) => Promise<void>) {
    this.#write = write;
  }

  /** Holds a row of source id `sourceId` whose geometry has box `box` and takes `bytes` stored. */
  hold(row: Row, sourceId: string, [minLon, minLat, maxLon, maxLat]: BBox, bytes: number): void {
    this.#held.push({ key: hilbertIndex((minLon + maxLon) / 2, (minLat + maxLat) / 2), row });
    this.#ids.add(sourceId);
    this.#bytes += bytes;
  }

  /** Writes what is held once the window is full. */
  async writeIfFull(context: ImportContext): Promise<void> {
    if (this.#held.length >= WINDOW_ROWS || this.#bytes >= WINDOW_BYTES) await this.writeAll(context);
  }

  /** Writes what is held if any of it has one of `sourceIds`, so that reads of those ids find them stored. */
  async writeHeld(context: ImportContext, sourceIds: Iterable<string>): Promise<void> {
    for (const id of sourceIds) {
      if (this.#ids.has(id)) return this.writeAll(context);
    }
  }

  /** Writes everything held, in space order. */
  async writeAll(context: ImportContext): Promise<void> {
    const held = this.#held.sort((a, b) => a.key - b.key);
    this.#held = [];
    this.#ids.clear();
    this.#bytes = 0;
    if (held.length > 0)
      await this.#write(
        context,
        held.map(({ row }) => row),
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
