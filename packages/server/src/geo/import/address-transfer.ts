import type { NormalizedAddress } from "../address/index.js";
import type { AddressImportOptions, LocatedAddress } from "./address-locator.js";
import { addressColumnsOf } from "./address-text.js";
import { type PackedGeometries, packGeometries, transferList, unpackGeometries } from "./geometry-transfer.js";
import type { Rejection } from "./import-summary.js";
import type { ReadRecord } from "./run-import.js";

/**
 * A batch of addresses as it crosses between the main thread, which reads the file and writes the rows, and an
 * import thread, which normalizes and locates them: by column, not as objects. The structured clone of an object
 * writes each of its keys, and reading it back builds the object key by key: for 2.1 M located addresses, some 4 s
 * of the main thread, against a fifth of that for their columns.
 */

/**
 * What a thread needs of each record: its address cells (one array for each column of `addressColumnsOf`), and its
 * parcel id cell or its point.
 */
export interface AddressRecords {
  cells: unknown[][];
  joins?: unknown[];
  geometries?: PackedGeometries;
}

/** The records' address cells and what locates them, and the buffers to hand over with them. */
export function packAddressRecords(
  batch: ReadRecord[],
  options: AddressImportOptions,
): { records: AddressRecords; transfer: ArrayBuffer[] } {
  const cell = (record: ReadRecord, column: string) => record.feature.properties?.[column];
  const cells = addressColumnsOf(options).map((column) => batch.map((record) => cell(record, column)));
  const { joinParcel } = options;
  if (joinParcel !== undefined) {
    return { records: { cells, joins: batch.map((record) => cell(record, joinParcel)) }, transfer: [] };
  }
  const geometries = packGeometries(batch.map((record) => record.feature.geometry));
  return { records: { cells, geometries }, transfer: transferList(geometries) };
}

/** The records again, on the thread, with the properties the locator reads. */
export function unpackAddressRecords(records: AddressRecords, options: AddressImportOptions): ReadRecord[] {
  const geometries = records.geometries ? unpackGeometries(records.geometries) : [];
  const columns = addressColumnsOf(options);
  return (records.cells[0] ?? []).map((_, i) => {
    const properties: Record<string, unknown> = {};
    for (const [k, column] of columns.entries()) properties[column] = records.cells[k]?.[i];
    if (options.joinParcel !== undefined) properties[options.joinParcel] = records.joins?.[i];
    const geometry = (geometries[i] ?? null) as ReadRecord["feature"]["geometry"];
    return { number: i + 1, feature: { type: "Feature", properties, geometry } };
  });
}

/** The text fields of an address, in the order of {@link PackedLocated.texts}. */
const TEXT_FIELDS = [
  "number",
  "predir",
  "street",
  "suffix",
  "postdir",
  "unitType",
  "unit",
  "city",
  "state",
  "postcode",
  "plus4",
] as const;

/**
 * A text field of a batch's addresses: its distinct values, and each address's as an index among them (-1: the
 * address lacks it). A batch's addresses share their town, state and ZIP code and many their street: the clone of
 * a string per address wrote each again, and the main thread read each back as a string of its own.
 */
export interface TextColumn {
  values: string[];
  indexes: Int32Array;
}

/** Located addresses by column: a field the address lacks is absent (its numbers NaN); rejections by position. */
export interface PackedLocated {
  count: number;
  texts: TextColumn[];
  numbers: Float64Array;
  /** Per address: its parcel's row id (NaN: none), longitude, latitude. */
  places: Float64Array;
  rejections: Array<[position: number, rejection: Rejection]>;
}

/** Two numbers an address has: `numberLow`, `numberHigh`. */
const NUMBERS = 2;
const PLACE_NUMBERS = 3;

export function packLocated(results: ReadonlyArray<LocatedAddress | Rejection>): PackedLocated {
  const count = results.length;
  const texts = TEXT_FIELDS.map(() => new TextColumnWriter(count));
  const numbers = new Float64Array(count * NUMBERS).fill(Number.NaN);
  const places = new Float64Array(count * PLACE_NUMBERS).fill(Number.NaN);
  const rejections: PackedLocated["rejections"] = [];
  results.forEach((result, position) => {
    if ("reason" in result) {
      rejections.push([position, result]);
      return;
    }
    const { address, parcelId, point } = result;
    TEXT_FIELDS.forEach((field, column) => {
      const value = address[field];
      if (value !== undefined) (texts[column] as TextColumnWriter).set(position, value);
    });
    if (address.numberLow !== undefined) numbers[position * NUMBERS] = address.numberLow;
    if (address.numberHigh !== undefined) numbers[position * NUMBERS + 1] = address.numberHigh;
    if (parcelId !== null) places[position * PLACE_NUMBERS] = parcelId;
    places[position * PLACE_NUMBERS + 1] = point[0];
    places[position * PLACE_NUMBERS + 2] = point[1];
  });
  return { count, texts: texts.map((column) => column.column), numbers, places, rejections };
}

/** The buffers of a packed batch, handed over rather than copied. */
export function locatedTransferList(packed: PackedLocated): ArrayBuffer[] {
  return [
    ...packed.texts.map((column) => column.indexes.buffer as ArrayBuffer),
    packed.numbers.buffer as ArrayBuffer,
    packed.places.buffer as ArrayBuffer,
  ];
}

/** Builds a {@link TextColumn}, each value kept once. */
class TextColumnWriter {
  readonly column: TextColumn;
  readonly #indexOf = new Map<string, number>();
  /** The value set last and its index: a file's addresses come street by street, town by town. */
  #last: string | undefined;
  #lastIndex = -1;

  constructor(count: number) {
    this.column = { values: [], indexes: new Int32Array(count).fill(-1) };
  }

  set(position: number, value: string): void {
    if (value !== this.#last) {
      let index = this.#indexOf.get(value);
      if (index === undefined) {
        index = this.column.values.push(value) - 1;
        this.#indexOf.set(value, index);
      }
      this.#last = value;
      this.#lastIndex = index;
    }
    this.column.indexes[position] = this.#lastIndex;
  }
}

/** The located addresses again, equal to those packed: absent fields absent. */
export function unpackLocated(packed: PackedLocated): Array<LocatedAddress | Rejection> {
  const { count, texts, numbers, places } = packed;
  const results = new Array<LocatedAddress | Rejection>(count);
  for (const [position, rejection] of packed.rejections) results[position] = rejection;
  for (let position = 0; position < count; position++) {
    if (results[position] !== undefined) continue;
    const address: Record<string, string | number> = {};
    TEXT_FIELDS.forEach((field, column) => {
      const text = texts[column] as TextColumn;
      const index = text.indexes[position] as number;
      if (index >= 0) address[field] = text.values[index] as string;
    });
    const [low, high] = [numbers[position * NUMBERS] as number, numbers[position * NUMBERS + 1] as number];
    if (!Number.isNaN(low)) address.numberLow = low;
    if (!Number.isNaN(high)) address.numberHigh = high;
    const parcelId = places[position * PLACE_NUMBERS] as number;
    results[position] = {
      address: address as unknown as NormalizedAddress,
      parcelId: Number.isNaN(parcelId) ? null : parcelId,
      point: [places[position * PLACE_NUMBERS + 1] as number, places[position * PLACE_NUMBERS + 2] as number],
    };
  }
  return results;
}
