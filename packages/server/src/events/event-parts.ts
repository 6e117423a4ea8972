import { bboxOf } from "../geo/geometry/bbox-of.js";
import { bboxesMeet } from "../geo/geometry/bboxes-meet.js";
import { polygonsOf } from "../geo/geometry/positions.js";
import { subdivide } from "../geo/geometry/subdivide.js";
import type { Area, BBox, Polygon } from "../geo/types.js";

/** A part of an event's area: a polygon of at most a few hundred positions, with its feature's intensity. */
export interface EventPart {
  polygon: Polygon;
  box: BBox;
  intensity: number | null;
}

/** An event area's polygons cut into parts (`subdivide`), each carrying the area's intensity. */
export function eventPartsOf(area: Area, intensity: number | null): EventPart[] {
  const polygons: Polygon[] =
    subdivide(area) ?? polygonsOf(area).map((coordinates) => ({ type: "Polygon", coordinates }));
  return polygons.map((polygon) => ({ polygon, box: bboxOf(polygon), intensity }));
}

/** Cells of the grid on each side: a county's event in parts of a few hundred positions lands a few per cell. */
const GRID_SIDE = 256;

/**
 * The parts of an event, found by box through a uniform grid over the event's extent: each of a portfolio's
 * hundreds of thousands of parcels asks for the parts near it, and a scan of every part would make the whole
 * search quadratic.
 */
export class EventPartIndex {
  readonly extent: BBox;
  readonly #cells = new Map<number, number[]>();
  readonly #parts: EventPart[];

  constructor(parts: EventPart[]) {
    this.#parts = parts;
    this.extent = parts.reduce<BBox>(
      (box, part) => [
        Math.min(box[0], part.box[0]),
        Math.min(box[1], part.box[1]),
        Math.max(box[2], part.box[2]),
        Math.max(box[3], part.box[3]),
      ],
      [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY],
    );
    for (const [index, part] of parts.entries()) {
      for (const cell of this.#cellsOf(part.box)) {
        const list = this.#cells.get(cell);
        if (list) list.push(index);
        else this.#cells.set(cell, [index]);
      }
    }
  }

  /** The parts whose boxes meet `box`, each once, in the order they were given. */
  near(box: BBox): EventPart[] {
    const found = new Set<number>();
    for (const cell of this.#cellsOf(box)) for (const index of this.#cells.get(cell) ?? []) found.add(index);
    return [...found]
      .sort((a, b) => a - b)
      .map((index) => this.#parts[index] as EventPart)
      .filter((part) => bboxesMeet(part.box, box));
  }

  *#cellsOf([west, south, east, north]: BBox): Generator<number> {
    const [x0, y0] = this.#cell(west, south);
    const [x1, y1] = this.#cell(east, north);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) yield x * GRID_SIDE + y;
  }

  #cell(lon: number, lat: number): [number, number] {
    const [west, south, east, north] = this.extent;
    const clamp = (value: number) => Math.min(GRID_SIDE - 1, Math.max(0, Math.floor(value)));
    return [
      clamp(((lon - west) / Math.max(east - west, 1e-12)) * GRID_SIDE),
      clamp(((lat - south) / Math.max(north - south, 1e-12)) * GRID_SIDE),
    ];
  }
}
