import { sql } from "kysely";
import { sortNumbers } from "../geometry/sort-numbers.js";
import type { GeoSource } from "../store/spatial-filter.js";
import type { BBox } from "../types.js";

/** The side of a cell, degrees: some 350 by 450 m in the middle latitudes, a hundred city lots. */
const CELL = 0.004;

/**
 * How far past its cell a cell's parcels are read, degrees: a box on a cell's edge is looked for in the cells on
 * both sides of it, whatever the rounding of the cell's bounds.
 */
const CELL_MARGIN = 1e-9;

/** Cells a box may span and still be looked for among them; a wider one is looked for in the spatial index. */
const MOST_CELLS_PER_BOX = 16;

/** Parcel boxes kept in cells, 40 bytes each: a few cities' worth. */
const KEPT_BOXES = 100_000;

/** Values a parcel takes in a cell: its id, then its box. */
const STRIDE = 5;

/**
 * Finds the parcels whose boxes meet footprints' boxes, for an import that looks for the parcels of a million
 * buildings where no parcel is written meanwhile. The parcels' boxes are read from the spatial index a cell of the
 * map at a time, as the footprints come to it, and kept for the footprints after: a city's footprints then cost
 * one reading of its parcels' boxes and a scan of a hundred boxes each, where a search of SQLite's R*Tree took
 * some 6.5 µs a footprint. The cells kept are bounded ({@link KEPT_BOXES}); a footprint wider than a few cells is
 * looked for in the index itself.
 *
 * The boxes compared are those the index holds (SQLite's R*Tree rounds them outward to single precision), so a
 * parcel is a candidate exactly when the index would have found it (PostgreSQL's `&&` also takes boxes a
 * micro-degree apart as meeting; such a parcel shares nothing with the footprint, and never owns it).
 */
export class CandidateParcels {
  readonly #source: GeoSource;
  /** Each cell's parcels by cell key, {@link STRIDE} values each; the oldest cell first. */
  readonly #cells = new Map<number, Float64Array>();
  #keptBoxes = 0;
  readonly #mostKept: number;

  /** `mostKept` bounds the boxes kept (fewer in tests). */
  constructor(source: GeoSource, mostKept = KEPT_BOXES) {
    this.#source = source;
    this.#mostKept = mostKept;
  }

  /** For each box, the ids of the parcels whose boxes meet it, ascending. */
  async meeting(boxes: readonly BBox[]): Promise<number[][]> {
    const spans = boxes.map(cellSpan);
    const cells = await this.#cellsFor(spans);
    const found: number[][] = [];
    const wide: number[] = [];
    for (const [i, box] of boxes.entries()) {
      const span = spans[i];
      if (span === undefined) {
        wide.push(i);
        found.push([]);
      } else found.push(parcelsMeeting(box, span, cells));
    }
    if (wide.length > 0) {
      const inIndex = await this.#fromIndex(wide.map((i) => boxes[i] as BBox));
      for (const [n, i] of wide.entries()) found[i] = inIndex[n] ?? [];
    }
    return found;
  }

  /**
   * The cells of `spans`, read where they are not kept. The map is this call's own, so that forgetting cells to
   * stay within the bound never drops one the boxes still need.
   */
  async #cellsFor(spans: ReadonlyArray<CellSpan | undefined>): Promise<Map<number, Float64Array>> {
    const cells = new Map<number, Float64Array>();
    const missing = new Map<number, BBox>();
    for (const span of spans) {
      if (span === undefined) continue;
      for (let x = span.west; x <= span.east; x++) {
        for (let y = span.south; y <= span.north; y++) {
          const key = cellKey(x, y);
          if (cells.has(key) || missing.has(key)) continue;
          const kept = this.#cells.get(key);
          if (kept) cells.set(key, kept);
          else missing.set(key, cellBox(x, y));
        }
      }
    }
    if (missing.size === 0) return cells;
    const read = await this.#cellsFromIndex([...missing.values()]);
    for (const [n, key] of [...missing.keys()].entries()) {
      const cell = read[n] ?? new Float64Array(0);
      cells.set(key, cell);
      this.#keep(key, cell);
    }
    return cells;
  }

  #keep(key: number, cell: Float64Array): void {
    if (this.#keptBoxes + cell.length / STRIDE > this.#mostKept) this.#forgetOldestHalf();
    this.#cells.set(key, cell);
    this.#keptBoxes += cell.length / STRIDE;
  }

  #forgetOldestHalf(): void {
    let forgetting = this.#cells.size / 2;
    for (const [key, cell] of this.#cells) {
      this.#cells.delete(key);
      this.#keptBoxes -= cell.length / STRIDE;
      if (--forgetting <= 0) return;
    }
  }

  /** For each box, the ids of the parcels the spatial index finds meeting it, ascending. */
  async #fromIndex(boxes: BBox[]): Promise<number[][]> {
    const { db, dialect } = this.#source;
    const { rows } = await (dialect === "sqlite" ? idsOnSqlite(boxes) : idsOnPostgres(boxes)).execute(db);
    const found: number[][] = boxes.map(() => []);
    for (const row of rows) found[Number(row.i)]?.push(Number(row.id));
    return found;
  }

  /**
   * For each cell, the parcels the spatial index finds meeting it, each as its id and box. A cell's come as one
   * JSON array: reading them as rows cost more than the search, some 2.8 µs a row against 1.3 µs a row as JSON.
   */
  async #cellsFromIndex(cells: BBox[]): Promise<Float64Array[]> {
    const { db, dialect } = this.#source;
    const { rows } = await (dialect === "sqlite" ? cellsOnSqlite(cells) : cellsOnPostgres(cells)).execute(db);
    const found = cells.map(() => new Float64Array(0));
    for (const row of rows) {
      // Numbers written as JSON come back exactly: each database writes a text that reads back as the same double.
      const parcels = (typeof row.parcels === "string" ? JSON.parse(row.parcels) : row.parcels) as number[][];
      const cell = new Float64Array(parcels.length * STRIDE);
      for (const [n, parcel] of parcels.entries()) cell.set(parcel, n * STRIDE);
      found[Number(row.i)] = cell;
    }
    return found;
  }
}

interface CellSpan {
  west: number;
  east: number;
  south: number;
  north: number;
}

/** The cells `box` lies in, or none when it spans more than {@link MOST_CELLS_PER_BOX}. */
function cellSpan([minLon, minLat, maxLon, maxLat]: BBox): CellSpan | undefined {
  const span = {
    west: Math.floor(minLon / CELL),
    east: Math.floor(maxLon / CELL),
    south: Math.floor(minLat / CELL),
    north: Math.floor(maxLat / CELL),
  };
  const cells = (span.east - span.west + 1) * (span.north - span.south + 1);
  return cells <= MOST_CELLS_PER_BOX ? span : undefined;
}

/** A cell's key, distinct for every cell: rows lie within ±22,500 of the equator's, well inside 2¹⁵. */
function cellKey(x: number, y: number): number {
  return x * 0x10000 + y;
}

function cellBox(x: number, y: number): BBox {
  return [x * CELL - CELL_MARGIN, y * CELL - CELL_MARGIN, (x + 1) * CELL + CELL_MARGIN, (y + 1) * CELL + CELL_MARGIN];
}

/** The ids of the parcels whose boxes meet `box`, ascending, from the cells of `span`. */
function parcelsMeeting(box: BBox, span: CellSpan, cells: Map<number, Float64Array>): number[] {
  const [minLon, minLat, maxLon, maxLat] = box;
  const found: number[] = [];
  for (let x = span.west; x <= span.east; x++) {
    for (let y = span.south; y <= span.north; y++) {
      const cell = cells.get(cellKey(x, y)) as Float64Array;
      for (let i = 0; i < cell.length; i += STRIDE) {
        if (
          (cell[i + 1] as number) <= maxLon &&
          (cell[i + 2] as number) <= maxLat &&
          (cell[i + 3] as number) >= minLon &&
          (cell[i + 4] as number) >= minLat
        ) {
          found.push(cell[i] as number);
        }
      }
    }
  }
  return sortedOnce(found);
}

/** `ids` in ascending order, each once (a parcel across two cells is met in both), sorted in place. */
function sortedOnce(ids: number[]): number[] {
  sortNumbers(ids);
  let kept = 0;
  for (const id of ids) if (kept === 0 || ids[kept - 1] !== id) ids[kept++] = id;
  ids.length = kept;
  return ids;
}

/**
 * The boxes as one JSON parameter read by `json_each`: the same statement for every chunk, with nothing for the
 * query builder to compile. The boxes lead the join (SQLite keeps a CROSS JOIN's order), each a search of the
 * R*Tree.
 */
function idsOnSqlite(boxes: BBox[]) {
  return sql<{ i: number; id: number }>`
    select b.key as i, p.id as id from json_each(${JSON.stringify(boxes)}) b cross join parcels_rtree p
    where p.min_lon <= b.value ->> 2 and p.max_lon >= b.value ->> 0
      and p.min_lat <= b.value ->> 3 and p.max_lat >= b.value ->> 1
    order by 1, 2`;
}

function cellsOnSqlite(cells: BBox[]) {
  return sql<{ i: number; parcels: string }>`
    select b.key as i, json_group_array(json_array(p.id, p.min_lon, p.min_lat, p.max_lon, p.max_lat)) as parcels
    from json_each(${JSON.stringify(cells)}) b cross join parcels_rtree p
    where p.min_lon <= b.value ->> 2 and p.max_lon >= b.value ->> 0
      and p.min_lat <= b.value ->> 3 and p.max_lat >= b.value ->> 1
    group by b.key`;
}

/** The boxes as four arrays spread by `unnest`, each searched for through the parcels' GiST index. */
function boxesOnPostgres(boxes: BBox[]) {
  const column = (at: number) => boxes.map((box) => box[at]);
  return sql`unnest(cast(${column(0)} as double precision[]), cast(${column(1)} as double precision[]),
      cast(${column(2)} as double precision[]), cast(${column(3)} as double precision[]))
      with ordinality as b (min_lon, min_lat, max_lon, max_lat, i)
    join parcels p on box(point(p.min_lon, p.min_lat), point(p.max_lon, p.max_lat))
      && box(point(b.min_lon, b.min_lat), point(b.max_lon, b.max_lat))`;
}

function idsOnPostgres(boxes: BBox[]) {
  return sql<{ i: number; id: number }>`
    select b.i - 1 as i, p.parcel_id as id from ${boxesOnPostgres(boxes)} order by 1, 2`;
}

function cellsOnPostgres(cells: BBox[]) {
  return sql<{ i: number; parcels: number[][] }>`
    select b.i - 1 as i, json_agg(json_build_array(p.parcel_id, p.min_lon, p.min_lat, p.max_lon, p.max_lat)) as parcels
    from ${boxesOnPostgres(cells)} group by b.i`;
}
