/**
 * A PostgreSQL array literal (`{"a",NULL,"b"}`) of `values`, written for the server's `array_in`; `undefined`
 * when the values are not ones it writes, and the driver's own encoding is to be used instead.
 *
 * The driver escapes each element in JavaScript, two regular expressions a string: for 550,000 address rows,
 * columns of 500 at a time, that was 2.3–2.7 s of the import's CPU against 1.3–1.5 s this way. JSON's text of an
 * array of strings, numbers and nulls is an array literal once its brackets are braces: both quote strings with `"`
 * and escape `"` and `\` with a backslash, and the server reads an unquoted `null` as NULL. They differ only in
 * JSON's other escapes (`\n`, `\u0001`, a lone surrogate's `\ud800`), which the server would read as the letter
 * after the backslash, and in numbers JSON cannot write (NaN and the infinities become `null`): those columns go
 * to the driver. Bytes and numbers of a known column type go in binary instead (`postgres-binary-array.ts`).
 */
export function postgresArrayLiteral(values: readonly unknown[]): string | undefined {
  for (const value of values) {
    if (typeof value === "number" ? !Number.isFinite(value) : !isJsonScalar(value)) return undefined;
  }
  const json = JSON.stringify(values);
  if (JSON_ONLY_ESCAPE.test(json)) return undefined;
  return `{${json.slice(1, -1)}}`;
}

/**
 * An escape of anything but `"` or `\`, which the two formats read differently: a backslash after an even number
 * of them (escaped backslashes) and a character that is neither.
 */
const JSON_ONLY_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\[^"\\]/;

function isJsonScalar(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "boolean";
}
