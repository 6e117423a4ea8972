import { bboxesMeet } from "../geo/geometry/bboxes-meet.js";
import { expandBBox } from "../geo/geometry/expand-bbox.js";
import { unionBBox } from "../geo/geometry/union-bbox.js";
import type { BBox } from "../geo/types.js";

/** Cells per degree: a cell is about 1.7 km north to south. */
const CELLS_PER_DEGREE = 64;

/** A box covering more cells than this is kept as a box, not as cells. */
const MOST_CELLS_A_BOX = 4096;

/** Beyond this many cells, growing the area by a reach gives up cells for one box around it all. */
const MOST_CELLS = 4_000_000;

/**
 * Where an import changed data: the cells of a fixed grid that the changed rows' boxes (as they were and as they
 * are) meet, and the few boxes too large for cells. Its size is bounded by the land it covers, not by the number
 * of rows, so a statewide import that changes every row holds tens of thousands of numbers. It only narrows:
 * whether a record really changed is decided by computing it again.
 */
export class ChangedArea {
  readonly #cells = new Set<number>();
  readonly #boxes: BBox[] = [];
  #extent: BBox | undefined;

  get empty(): boolean {
    return this.#extent === undefined;
  }

  /** The box around everything changed; undefined when nothing did. */
  get extent(): BBox | undefined {
    return this.#extent;
  }

  add(box: BBox): void {
    this.#extent = this.#extent ? unionBBox(this.#extent, box) : box;
    const [x0, y0, x1, y1] = cellRange(box);
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > MOST_CELLS_A_BOX) this.#boxes.push(box);
    else for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) this.#cells.add(cellKey(x, y));
  }

  /** Whether `box` meets the area (through a cell it shares or a large box it meets). */
  meets(box: BBox): boolean {
    if (this.#boxes.some((large) => bboxesMeet(large, box))) return true;
    const [x0, y0, x1, y1] = cellRange(box);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) if (this.#cells.has(cellKey(x, y))) return true;
    return false;
  }

  /** The area grown by `metres` on every side: everything within that distance of a change (itself for none). */
  grownBy(metres: number): ChangedArea {
    if (!this.#extent || !(metres > 0)) return this;
    const grown = new ChangedArea();
    const outer = expandBBox(this.#extent, metres);
    const [reachX, reachY] = [
      Math.ceil((outer[2] - this.#extent[2]) * CELLS_PER_DEGREE),
      Math.ceil((outer[3] - this.#extent[3]) * CELLS_PER_DEGREE),
    ];
    for (const large of this.#boxes) grown.add(expandBBox(large, metres));
    if (this.#cells.size * (2 * reachX + 1) * (2 * reachY + 1) > MOST_CELLS) {
      grown.add(outer);
      return grown;
    }
    for (const cell of this.#cells) {
      const [x, y] = [Math.floor(cell / 2 ** 16), cell % 2 ** 16];
      for (let dx = -reachX; dx <= reachX; dx++)
        for (let dy = -reachY; dy <= reachY; dy++) {
          grown.#cells.add(cellKey(x + dx, y + dy));
        }
    }
    grown.#extent = grown.#extent ? unionBBox(grown.#extent, outer) : outer;
    return grown;
  }
}

function cellRange([west, south, east, north]: BBox): [number, number, number, number] {
  return [cellX(west), cellY(south), cellX(east), cellY(north)];
}

const cellX = (lon: number) => Math.floor((lon + 180) * CELLS_PER_DEGREE);
const cellY = (lat: number) => Math.floor((lat + 90) * CELLS_PER_DEGREE);
/** 360 × 64 and 180 × 64 cells both fit in 16 bits. */
const cellKey = (x: number, y: number) => x * 2 ** 16 + y;
