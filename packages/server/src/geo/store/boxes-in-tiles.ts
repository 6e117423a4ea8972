import { sql } from "kysely";
import type { BBox } from "../types.js";
import { BOX_COLUMNS, type BoxIndexedTable, bboxMeets, type GeoSource, KEY } from "./spatial-filter.js";

/** A row's id and bounding box, as its spatial index holds it. */
export interface IndexedBox {
  id: number;
  box: BBox;
}

/**
 * The ids and boxes of the rows of `table` whose boxes meet `extent`, read through the spatial index a tile of
 * `tileSide` degrees at a time (each tile's rows in ascending id; tiles `skip` rejects, by box or by their ordinal
 * among the extent's tiles, left out): each read is
 * bounded by its tile, and the whole by the rows there, however many the table holds. A row is given in the one
 * tile holding its south-west corner (or the extent's, for a row reaching in from outside). On SQLite the boxes
 * come from the R*Tree itself, rounded outward to single precision — wider by at most a few centimetres, never
 * narrower — so no table row is read.
 */
export async function* boxesInTiles(
  source: GeoSource,
  table: BoxIndexedTable,
  extent: BBox,
  tileSide: number,
  skip: (tile: BBox, ordinal: number) => boolean = () => false,
): AsyncGenerator<IndexedBox[]> {
  // An extent holding no row, as with the properties before any order is placed, is one read rather than one a tile.
  if ((await boxesMeeting(source, table, extent, 1)).length === 0) return;
  const [west, south, east, north] = extent;
  const columns = Math.max(1, Math.ceil((east - west) / tileSide));
  const rows = Math.max(1, Math.ceil((north - south) / tileSide));
  const tileOf = (value: number, from: number, count: number) =>
    Math.min(count - 1, Math.floor((Math.max(value, from) - from) / tileSide));
  for (let column = 0; column < columns; column++) {
    for (let row = 0; row < rows; row++) {
      const tile: BBox = [
        west + column * tileSide,
        south + row * tileSide,
        Math.min(east, west + (column + 1) * tileSide),
        Math.min(north, south + (row + 1) * tileSide),
      ];
      if (skip(tile, column * rows + row)) continue;
      const found = (await boxesMeeting(source, table, tile)).filter(
        ({ box }) => tileOf(box[0], west, columns) === column && tileOf(box[1], south, rows) === row,
      );
      if (found.length > 0) yield found;
    }
  }
}

/** The ids and boxes of the rows whose boxes meet `box` (the first `limit` found, if given), in ascending id. */
async function boxesMeeting(
  source: GeoSource,
  table: BoxIndexedTable,
  box: BBox,
  limit?: number,
): Promise<IndexedBox[]> {
  const atMost = limit === undefined ? sql`` : sql`limit ${limit}`;
  const [minLon, minLat, maxLon, maxLat] = box;
  const [west, south, east, north] = ["min_lon", "min_lat", "max_lon", "max_lat"].map((name) =>
    sql.ref(`${BOX_COLUMNS[table]}${name}`),
  );
  const { rows } =
    source.dialect === "sqlite"
      ? await sql<Row>`select id, min_lon as w, min_lat as s, max_lon as e, max_lat as n
          from ${sql.table(`${table}_rtree`)}
          where min_lon <= ${maxLon} and max_lon >= ${minLon} and min_lat <= ${maxLat} and max_lat >= ${minLat}
          ${atMost}`.execute(source.db)
      : await sql<Row>`select ${sql.ref(KEY[table])} as id, ${west} as w, ${south} as s, ${east} as e, ${north} as n
          from ${sql.table(table)} where ${bboxMeets(source.dialect, table, box)} ${atMost}`.execute(source.db);
  // Sorted here, not by the statement: no plan may then walk the primary key for the order (see `idForOrder`).
  return rows.sort((a, b) => a.id - b.id).map((row) => ({ id: row.id, box: [row.w, row.s, row.e, row.n] }));
}

interface Row {
  id: number;
  w: number;
  s: number;
  e: number;
  n: number;
}
