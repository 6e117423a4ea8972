import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";
import { postgresBinaryArray } from "./postgres-binary-array.js";

describe("postgresBinaryArray", () => {
  it("writes the header, each element's length and its bytes in network order", () => {
    expect([...(postgresBinaryArray([7, null, -2], "integer") as Buffer)]).toEqual([
      ...[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 23], // one dimension, nulls, int4
      ...[0, 0, 0, 3, 0, 0, 0, 1], // three elements from 1
      ...[0, 0, 0, 4, 0, 0, 0, 7],
      ...[255, 255, 255, 255],
      ...[0, 0, 0, 4, 255, 255, 255, 254],
    ]);
    expect([...(postgresBinaryArray([], "bytea") as Buffer)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 17]);
  });

  it("leaves to the text literal a type it does not write and a value not of the column's type", () => {
    expect(postgresBinaryArray(["a"], "text")).toBeUndefined();
    expect(postgresBinaryArray([1, "2"], "double precision")).toBeUndefined();
    expect(postgresBinaryArray([2 ** 31], "integer")).toBeUndefined();
    expect(postgresBinaryArray([1.5], "integer")).toBeUndefined();
    expect(postgresBinaryArray([2 ** 53], "bigint")).toBeUndefined();
    expect(postgresBinaryArray(["0102"], "bytea")).toBeUndefined();
  });
});

describe.skipIf(TEST_DIALECT !== "postgres")("postgresBinaryArray read by PostgreSQL", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(async () => {
    await test?.destroy();
  });

  /** The array as the server reads it, each element given back as text so that every digit is compared. */
  async function readBack(values: unknown[], type: string): Promise<Array<string | null>> {
    const array = postgresBinaryArray(values, type);
    if (array === undefined) throw new Error(`no binary ${type}[]`);
    const { rows } = await sql<{ value: string | null }>`
      select cast(value as text) as value
      from unnest(cast(${array} as ${sql.raw(type)}[])) with ordinality as element (value, position)
      order by position`.execute(test.database.db);
    return rows.map((row) => row.value);
  }

  it("reads back doubles exactly, the values text cannot carry included", async () => {
    const doubles = [-71.10452, 42.3736, 0, -0, 1e-7, 123456789.125, 0.1 + 0.2, Number.NaN, -Infinity, null];
    const read = await readBack(doubles, "double precision");
    expect(read.map((text) => (text === null ? null : Number(text)))).toEqual(doubles);
    expect(read[3]).toBe("-0");
  });

  it("reads back integers and bigints at their bounds", async () => {
    expect(await readBack([1, 2 ** 31 - 1, -(2 ** 31), null], "integer")).toEqual([
      "1",
      "2147483647",
      "-2147483648",
      null,
    ]);
    const bigints = [1_700_000_000_123, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, -1, 2 ** 32, null];
    expect(await readBack(bigints, "bigint")).toEqual(bigints.map((value) => (value === null ? null : String(value))));
  });

  it("reads back bytes, a view into a larger buffer, an empty value and an empty array included", async () => {
    const whole = Buffer.from([0, 1, 2, 92, 34, 120, 255, 0]);
    const values = [Buffer.from([92, 120, 34, 123, 125, 44]), null, whole.subarray(2, 6), Buffer.alloc(0)];
    expect(await readBack(values, "bytea")).toEqual(["\\x5c78227b7d2c", null, "\\x025c2278", "\\x"]);
    expect(await readBack([], "bytea")).toEqual([]);
  });
});
