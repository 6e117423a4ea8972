/**
 * A PostgreSQL array of `values` in the server's binary format, for a column of `type` (as `format_type` names
 * it); `undefined` for a type it does not write, or a value that is not one of that type, and the text literal is
 * to be used instead. The driver sends a Buffer parameter as binary, and the server then reads it with
 * `array_recv`: each element is copied rather than parsed.
 *
 * Bytes and numbers go this way. Written as text, a geometry doubled in hex, which the server then decoded, and a
 * double was printed here and parsed there: binding the text arrays was half of what the server spent on a layer's
 * inserts.
 */
export function postgresBinaryArray(values: readonly unknown[], type: string): Buffer | undefined {
  const element = ELEMENTS[type];
  if (element === undefined) return undefined;
  let size = values.length === 0 ? EMPTY_HEADER : HEADER;
  let nulls = false;
  for (const value of values) {
    if (value === null || value === undefined) {
      nulls = true;
      size += 4;
      continue;
    }
    const length = element.length(value);
    if (length === undefined) return undefined;
    size += 4 + length;
  }
  const buffer = Buffer.allocUnsafe(size);
  buffer.writeInt32BE(values.length === 0 ? 0 : 1, 0);
  buffer.writeInt32BE(nulls ? 1 : 0, 4);
  buffer.writeInt32BE(element.oid, 8);
  if (values.length === 0) return buffer;
  buffer.writeInt32BE(values.length, 12);
  buffer.writeInt32BE(1, 16);
  let offset = HEADER;
  for (const value of values) {
    if (value === null || value === undefined) offset = buffer.writeInt32BE(-1, offset);
    else offset = element.write(buffer, buffer.writeInt32BE(element.length(value) as number, offset), value);
  }
  return buffer;
}

/** Dimensions, a flag for nulls and the element type; then the one dimension's length and lower bound. */
const EMPTY_HEADER = 12;
const HEADER = 20;

/** An element type: its oid, the length of a value's binary form (undefined if not of the type), and its writer. */
interface Element {
  oid: number;
  length(value: unknown): number | undefined;
  /** Writes the value at `offset`; answers the offset after it. */
  write(buffer: Buffer, offset: number, value: unknown): number;
}

const TWO_TO_32 = 2 ** 32;

const ELEMENTS: Record<string, Element> = {
  bytea: {
    oid: 17,
    length: (value) => (value instanceof Uint8Array ? value.byteLength : undefined),
    write: (buffer, offset, value) => {
      buffer.set(value as Uint8Array, offset);
      return offset + (value as Uint8Array).byteLength;
    },
  },
  "double precision": {
    oid: 701,
    length: (value) => (typeof value === "number" ? 8 : undefined),
    write: (buffer, offset, value) => buffer.writeDoubleBE(value as number, offset),
  },
  integer: {
    oid: 23,
    length: (value) =>
      typeof value === "number" && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 ? 4 : undefined,
    write: (buffer, offset, value) => buffer.writeInt32BE(value as number, offset),
  },
  bigint: {
    oid: 20,
    length: (value) => (Number.isSafeInteger(value) ? 8 : undefined),
    // Two halves: a number past 32 bits has no integer write of its own, and a BigInt made of each would cost more.
    write: (buffer, offset, value) => {
      const high = Math.floor((value as number) / TWO_TO_32);
      return buffer.writeUInt32BE((value as number) - high * TWO_TO_32, buffer.writeInt32BE(high, offset));
    },
  },
};
