import { edgesOf } from "../geo/geometry/areas-meet.js";
import { bboxOf } from "../geo/geometry/bbox-of.js";
import { bboxesMeet } from "../geo/geometry/bboxes-meet.js";
import { containsPoint } from "../geo/geometry/contains-point.js";
import type { Pair } from "../geo/geometry/read-polygons.js";
import { segmentsMeet } from "../geo/geometry/segments-meet.js";
import type { Area, BBox, Position } from "../geo/types.js";
import { BoxGrid } from "./box-grid.js";

/**
 * The edges of an event's polygons as published — not the cuts between its parts — found by box. An area that no
 * edge meets and that holds no edge's end lies wholly inside the event or wholly outside it, which one vertex
 * decides: for all but the parcels along the event's edge, that is the whole test.
 */
export class EventBoundary {
  /** Each edge's ends: x1, y1, x2, y2. */
  readonly #edges: Float64Array;
  readonly #grid: BoxGrid;

  constructor(areas: Area[], extent: BBox) {
    const edges: number[] = [];
    for (const area of areas) for (const [a, b] of edgesOf(area)) edges.push(a[0], a[1], b[0], b[1]);
    this.#edges = Float64Array.from(edges);
    this.#grid = new BoxGrid(extent);
    for (let index = 0; index < this.#edges.length / 4; index++) this.#grid.add(index, this.#boxOf(index));
  }

  /**
   * When no edge's box comes into the cells of the grid that `box` meets, one of those cells: all of `box` lies
   * on the same side of every edge as that cell's middle (`middleOf`). Undefined when an edge comes near.
   */
  clearCellUnder(box: BBox): number | undefined {
    return this.#grid.emptyCellUnder(box);
  }

  /** The middle of a cell of the edges' grid. */
  middleOf(cell: number): Position {
    return this.#grid.middleOf(cell);
  }

  /** Whether the box of an edge of the event meets `box`. */
  nearBox(box: BBox): boolean {
    return this.#near(box).length > 0;
  }

  /** Whether an edge of the event meets an edge of `area`, or ends inside it. */
  touches(area: Area): boolean {
    const near = this.#near(bboxOf(area));
    if (near.length === 0) return false;
    const edges = edgesOf(area);
    for (const index of near) {
      const a: Pair = [this.#edges[index * 4] ?? 0, this.#edges[index * 4 + 1] ?? 0];
      const b: Pair = [this.#edges[index * 4 + 2] ?? 0, this.#edges[index * 4 + 3] ?? 0];
      for (const [c, d] of edges) if (segmentsMeet(a, b, c, d)) return true;
      if (containsPoint(area, a)) return true;
    }
    return false;
  }

  #near(box: BBox): number[] {
    return this.#grid.candidates(box).filter((index) => bboxesMeet(this.#boxOf(index), box));
  }

  #boxOf(index: number): BBox {
    const [x1, y1, x2, y2] = [0, 1, 2, 3].map((k) => this.#edges[index * 4 + k] ?? 0) as [
      number,
      number,
      number,
      number,
    ];
    return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
  }
}
