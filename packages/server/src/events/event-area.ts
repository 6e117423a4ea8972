import { relateAreas } from "../geo/geometry/areas-meet.js";
import { bboxOf } from "../geo/geometry/bbox-of.js";
import { bboxesMeet } from "../geo/geometry/bboxes-meet.js";
import { polygonsOf } from "../geo/geometry/positions.js";
import type { Area, BBox, Position } from "../geo/types.js";
import { EventBoundary } from "./event-boundary.js";
import { type EventPart, EventPartIndex, eventPartsOf } from "./event-parts.js";

/** How an area lies against an event: wholly inside it, or across its edge; with the event's parts it meets. */
export interface Meeting {
  within: boolean;
  parts: EventPart[];
}

/**
 * An event's area in memory, for testing a portfolio against it: its polygons cut into parts (each with its
 * intensity), found by box, and its published edges, found by box.
 */
export class EventArea {
  readonly parts: EventPart[];
  readonly extent: BBox;
  readonly #index: EventPartIndex;
  readonly #boundary: EventBoundary;
  /** How the grid cells that no edge comes into lie against the event, by cell, as they are first asked. */
  readonly #cellSides = new Map<number, Meeting | undefined>();

  constructor(areas: Array<{ area: Area; intensity: number | null }>) {
    this.parts = areas.flatMap(({ area, intensity }) => eventPartsOf(area, intensity));
    this.extent = bboxOf({ type: "MultiPolygon", coordinates: this.parts.map((part) => part.polygon.coordinates) });
    this.#index = new EventPartIndex(this.parts, this.extent);
    this.#boundary = new EventBoundary(
      areas.map(({ area }) => area),
      this.extent,
    );
  }

  /**
   * How `area` lies against the event, touching included; undefined when it is apart. Only an area that the
   * event's edge meets is related part by part; any other lies wholly inside or wholly outside, as its first
   * vertex does (each polygon of it, for a lot in pieces).
   */
  meeting(area: Area): Meeting | undefined {
    const box = bboxOf(area);
    if (!bboxesMeet(box, this.extent)) return undefined;
    if (!this.#boundary.touches(area)) {
      const holding = polygonsOf(area).map((polygon) => this.#index.holding(polygon[0]?.[0] as Position));
      if (holding.every((parts) => parts.length === 0)) return undefined;
      if (holding.every((parts) => parts.length > 0)) return { within: true, parts: [...new Set(holding.flat())] };
    }
    const parts = this.#index.near(box).filter((part) => relateAreas(area, part.polygon) !== "apart");
    return parts.length === 0 ? undefined : { within: false, parts };
  }

  /** The parts `point` lies in, their boundary included. */
  holding(point: Position): EventPart[] {
    return this.#index.holding(point);
  }

  /**
   * How everything in `box` lies against the event when the box alone tells: when no edge of the event comes into
   * it, wholly inside (with the parts holding it) or apart (undefined); "across" when one does, and what the box
   * holds must be related itself (`meeting`). Inside a county-wide event most parcels and buildings are decided
   * here, most by the answer for a cell of the edges' grid, found once.
   */
  boxSide(box: BBox): Meeting | undefined | "across" {
    if (!bboxesMeet(box, this.extent)) return undefined;
    const cell = this.#boundary.clearCellUnder(box);
    if (cell !== undefined) {
      if (!this.#cellSides.has(cell)) this.#cellSides.set(cell, this.#pointSide(this.#boundary.middleOf(cell)));
      return this.#cellSides.get(cell);
    }
    if (this.#boundary.nearBox(box)) return "across";
    return this.#pointSide([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]);
  }

  #pointSide(point: Position): Meeting | undefined {
    const parts = this.holding(point);
    return parts.length > 0 ? { within: true, parts } : undefined;
  }
}
