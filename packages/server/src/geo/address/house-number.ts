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
  const digits = plainNumberLength(line);
  if (digits > 0) {
    const value = Number(line.slice(0, digits));
    return { number: { text: line.slice(0, digits), low: value, high: value }, rest: line.slice(digits).trim() };
  }
  const match = LEADING.exec(line);
  if (!match?.[1]) return undefined;
  const text = match[1].replace(/ ?- ?/g, "-");
  const { low, high } = numberRange(text);
  const number: HouseNumber = low === undefined ? { text } : { text, low, high };
  return { number, rest: line.slice(match[0].length).trim() };
}

/**
 * How many digits a line starts with when they alone are its house number, as most are (`120 GORE ST`): followed by
 * the end of the line, or by one space and a word that neither continues the number (`12 1/2`, `12 - 14`) nor is
 * empty; 0 otherwise, when {@link LEADING} reads the number. Read by hand, since this runs for every address.
 */
function plainNumberLength(line: string): number {
  let end = 0;
  while (end < line.length && isDigit(line.charCodeAt(end))) end += 1;
  if (end === 0 || end === line.length) return end;
  if (line.charCodeAt(end) !== SPACE) return 0;
  const next = line.charCodeAt(end + 1);
  return Number.isNaN(next) || next === SPACE || next === HYPHEN || isDigit(next) ? 0 : end;
}

const SPACE = 0x20;
const HYPHEN = 0x2d;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
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
