/** One house number of a range: `12`, `12.5`, `12 1/2`, `12A`, `81AR`, `12 1/2A`; not an ordinal (`1ST` is a street). */
const PART = String.raw`\d+(?:\.\d+)?(?: \d+/\d+)?(?:(?!(?:ST|ND|RD|TH)\b)[A-Z]{1,2})?`;
/** A house number or range at the start of a folded street line: parts joined by `-`, or a letter after `-` (`126-C`). */
const LEADING = new RegExp(`^(${PART}(?: ?- ?(?:${PART}|[A-Z]))*)(?= |$)`);

export interface HouseNumber {
  /** The number as written, spaces around `-` closed up: `12-14`, `12 1/2`, `12A`. */
  text: string;
  /** Smallest and largest numeric value among its parts (`12 1/2` → 12.5); absent when no part has one. */
  low?: number;
  high?: number;
}

/**
 * The house number at the start of a folded street line and the rest of the line, or `undefined` when the line
 * does not start with one.
 *
 * @example readHouseNumber("30 - 32 SCIARAPPA ST") // { number: { text: "30-32", low: 30, high: 32 }, rest: "SCIARAPPA ST" }
 */
export function readHouseNumber(line: string): { number: HouseNumber; rest: string } | undefined {
  const match = LEADING.exec(line);
  if (!match?.[1]) return undefined;
  const text = match[1].replace(/ ?- ?/g, "-");
  const { low, high } = numberRange(text);
  const number: HouseNumber = low === undefined ? { text } : { text, low, high };
  return { number, rest: line.slice(match[0].length).trim() };
}

/** The numeric low and high of a house number text (`30-32` → 30, 32; `14.5-14` → 14, 14.5). */
export function numberRange(text: string): { low?: number; high?: number } {
  let low: number | undefined;
  let high: number | undefined;
  for (const part of text.split("-")) {
    const value = partValue(part);
    if (value === undefined) continue;
    if (low === undefined || value < low) low = value;
    if (high === undefined || value > high) high = value;
  }
  return low === undefined ? {} : { low, high };
}

/** The value of one part: its digits plus a proper fraction after them (`12 1/2` → 12.5; `16 16/2` → 16). */
function partValue(part: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(?: (\d+)\/(\d+))?/.exec(part);
  if (!match?.[1]) return undefined;
  const whole = Number(match[1]);
  const numerator = Number(match[2] ?? 0);
  const denominator = Number(match[3] ?? 1);
  return numerator > 0 && numerator < denominator ? whole + numerator / denominator : whole;
}
