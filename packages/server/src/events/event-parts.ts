import { bboxOf } from "../geo/geometry/bbox-of.js";
import { bboxesMeet } from "../geo/geometry/bboxes-meet.js";
import { containsPoint } from "../geo/geometry/contains-point.js";
import { polygonsOf } from "../geo/geometry/positions.js";
import { subdivide } from "../geo/geometry/subdivide.js";
import { onStoredGrid } from "../geo/store/geometry-codec.js";
import type { Area, BBox, Polygon, Position } from "../geo/types.js";
import { BoxGrid } from "./box-grid.js";

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
  // The corners a cut makes go on the stored grid: the part measured now is the part read back later.
  return polygons.map((cut) => {
    const polygon = onStoredGrid(cut);
    return { polygon, box: bboxOf(polygon), intensity };
  });
}

/** The parts of an event, found by box. */
export class EventPartIndex {
  readonly #parts: EventPart[];
  readonly #grid: BoxGrid;

  constructor(parts: EventPart[], extent: BBox) {
    this.#parts = parts;
    this.#grid = new BoxGrid(extent);
    for (const [index, part] of parts.entries()) this.#grid.add(index, part.box);
  }

  /** The parts whose boxes meet `box`, in the order they were given. */
  near(box: BBox): EventPart[] {
    return this.#grid
      .candidates(box)
      .map((index) => this.#parts[index] as EventPart)
      .filter((part) => bboxesMeet(part.box, box));
  }

  /** The parts `point` lies in, their boundary included. */
  holding(point: Position): EventPart[] {
    const [lon = 0, lat = 0] = point;
    return this.near([lon, lat, lon, lat]).filter((part) => containsPoint(part.polygon, point));
  }
}
