import type { BBox, Position } from "../geo/types.js";

/** Cells of the grid on each side. */
const GRID_SIDE = 256;

/**
 * Items found by box through a uniform grid over a fixed extent: each item is listed in every cell its box
 * meets. An event's parts and edges are looked up by each of hundreds of thousands of parcels; a scan of them all
 * per parcel would make the whole search quadratic.
 */
export class BoxGrid {
  readonly #extent: BBox;
  readonly #cells = new Map<number, number[]>();

  constructor(extent: BBox) {
    this.#extent = extent;
  }

  /** Lists item `index` under every cell `box` meets. */
  add(index: number, box: BBox): void {
    for (const cell of this.#cellsOf(box)) {
      const list = this.#cells.get(cell);
      if (list) list.push(index);
      else this.#cells.set(cell, [index]);
    }
  }

  /** The items listed in the cells `box` meets, each once, in ascending order (their boxes still to be checked). */
  candidates(box: BBox): number[] {
    const found = new Set<number>();
    for (const cell of this.#cellsOf(box)) for (const index of this.#cells.get(cell) ?? []) found.add(index);
    return [...found].sort((a, b) => a - b);
  }

  /**
   * When no item is listed in any cell `box` meets: the first of those cells, which with the others forms one
   * rectangle of the grid free of items. Undefined when some item is listed there.
   */
  emptyCellUnder(box: BBox): number | undefined {
    const [x0, y0] = this.#cell(box[0], box[1]);
    const [x1, y1] = this.#cell(box[2], box[3]);
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) if (this.#cells.has(x * GRID_SIDE + y)) return undefined;
    }
    return x0 * GRID_SIDE + y0;
  }

  /** The middle of a cell. */
  middleOf(cell: number): Position {
    const [west, south, east, north] = this.#extent;
    const [x, y] = [Math.floor(cell / GRID_SIDE), cell % GRID_SIDE];
    return [west + ((x + 0.5) * (east - west)) / GRID_SIDE, south + ((y + 0.5) * (north - south)) / GRID_SIDE];
  }

  *#cellsOf([west, south, east, north]: BBox): Generator<number> {
    const [x0, y0] = this.#cell(west, south);
    const [x1, y1] = this.#cell(east, north);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) yield x * GRID_SIDE + y;
  }

  #cell(lon: number, lat: number): [number, number] {
    const [west, south, east, north] = this.#extent;
    const clamp = (value: number) => Math.min(GRID_SIDE - 1, Math.max(0, Math.floor(value)));
    return [
      clamp(((lon - west) / Math.max(east - west, 1e-12)) * GRID_SIDE),
      clamp(((lat - south) / Math.max(north - south, 1e-12)) * GRID_SIDE),
    ];
  }
}
