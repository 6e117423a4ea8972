import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from "../test/test-database.js";
import { postgresArrayLiteral } from "./postgres-array-literal.js";

/** Texts an imported attribute or address may hold: quotes, backslashes, braces, commas, words the server knows. */
const TEXTS = [
  "120 GORE ST",
  'lot "7" of 9',
  "C:\\parcels\\a.shp",
  "ends in a backslash \\",
  'a backslash before a quote \\"',
  "a backslash before an n: \\n",
  "{braces}, commas, and (parentheses)",
  "NULL",
  "null",
  "",
  " spaced ",
  "Cañada — Straße 北京 🏠",
];

/** Texts JSON writes with escapes of its own, which the server reads differently: the driver encodes these. */
const JSON_ESCAPED = ["line\nbreak", "tab\there", "bell\u0007", "lone \ud800 surrogate"];

describe("postgresArrayLiteral", () => {
  it("writes strings, numbers, booleans and nulls as braces around JSON's text", () => {
    expect(postgresArrayLiteral(["a", null, 'b"c', "d\\e"])).toBe('{"a",null,"b\\"c","d\\\\e"}');
    expect(postgresArrayLiteral([1, -2.5, 1e-7, null])).toBe("{1,-2.5,1e-7,null}");
    expect(postgresArrayLiteral([true, false])).toBe("{true,false}");
    expect(postgresArrayLiteral([])).toBe("{}");
  });

  it("leaves to the driver what JSON would write otherwise: its own escapes, non-finite numbers, bytes", () => {
    for (const text of JSON_ESCAPED) expect(postgresArrayLiteral(["fine", text]), text).toBeUndefined();
    for (const number of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(postgresArrayLiteral([1, number])).toBeUndefined();
    }
    expect(postgresArrayLiteral([Buffer.from([1, 2]), null])).toBeUndefined();
    expect(postgresArrayLiteral([{ a: 1 }])).toBeUndefined();
  });
});

describe.skipIf(TEST_DIALECT !== "postgres")("postgresArrayLiteral read by PostgreSQL", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(async () => {
    await test?.destroy();
  });

  async function readBack<T>(literal: string, type: string): Promise<T[]> {
    const { rows } = await sql<{ values: T[] }>`select cast(${literal} as ${sql.raw(type)}[]) as values`.execute(
      test.database.db,
    );
    return (rows[0] as { values: T[] }).values;
  }

  it("reads back every text as written, nulls as NULL and the word null as a text", async () => {
    const values = [...TEXTS, null];
    expect(await readBack(postgresArrayLiteral(values) as string, "text")).toEqual(values);
  });

  it("reads back numbers and booleans of every column type an import writes", async () => {
    const doubles = [-71.10452, 42.3736, 0, -0.5, 1e-7, 123456789.125, null];
    expect(await readBack(postgresArrayLiteral(doubles) as string, "double precision")).toEqual(doubles);
    const integers = [1, 2_147_483_647, -3, null];
    expect(await readBack(postgresArrayLiteral(integers) as string, "integer")).toEqual(integers);
    // bigint comes back as text from the driver
    expect(await readBack(postgresArrayLiteral([1_700_000_000_123, null]) as string, "bigint")).toEqual([
      "1700000000123",
      null,
    ]);
    expect(await readBack(postgresArrayLiteral([true, null, false]) as string, "boolean")).toEqual([true, null, false]);
  });
});
