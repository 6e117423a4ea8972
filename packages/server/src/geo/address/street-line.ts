import { type StreetWords, streetWords } from "./street-words.js";
import {
  directionalOf,
  isHighwayType,
  isStreetWord,
  isUnnumberedUnit,
  suffixOf,
  unitDesignatorOf,
} from "./usps-tables.js";

export interface StreetLine extends Partial<StreetWords> {
  unitType?: string;
  unit?: string;
  city?: string;
}

/**
 * How words left after the street (and its unit) are read: `any` — they are the city (a state or ZIP follows);
 * `plain` — they are the city if they look like one (letters only, no street word, the first of 3+ letters);
 * `never` — they are a unit (the city is known).
 */
export type CityMode = "any" | "plain" | "never";

/**
 * Reads the words of a street line after its house number: the street, a unit (`APT 4B`, `# 3`, `REAR`, or words
 * after the street type such as `PS1`), and a city trailing the street when `mode` allows (or when the line ends
 * with `defaultCity`).
 */
export function readStreetLine(input: readonly string[], mode: CityMode, defaultCity?: string): StreetLine {
  let words = input.map(trimHyphens).filter((word) => word !== "");
  let city: string | undefined;
  const cityWords = defaultCity?.split(" ") ?? [];
  if (
    cityWords.length > 0 &&
    words.length > cityWords.length &&
    words.slice(-cityWords.length).join(" ") === defaultCity
  ) {
    city = defaultCity;
    words = words.slice(0, -cityWords.length);
    mode = "never";
  }
  const takeCity = (tail: readonly string[]): boolean => {
    if (city !== undefined || tail.length === 0 || !acceptsCity(tail, mode)) return false;
    city = tail.join(" ");
    return true;
  };

  let unitType: string | undefined;
  let unitWords: string[] = [];
  const unit = findUnit(words);
  if (unit) {
    unitType = unit.type;
    unitWords = words.slice(unit.index + 1, unit.valueEnd).filter((word) => word !== "#");
    const [more, tail] = splitTail(words.slice(unit.valueEnd));
    unitWords.push(...more);
    if (!takeCity(tail)) unitWords.push(...tail);
    words = words.slice(0, unit.index);
  }

  words = splitWords(words);
  const end = unit ? words.length : streetEnd(words);
  if (end < words.length) {
    const [more, tail] = splitTail(words.slice(end));
    words = words.slice(0, end);
    const extra = takeCity(tail) ? more : [...more, ...tail];
    if (extra.length > 0) {
      unitType ??= "#";
      unitWords.unshift(...extra);
    }
  }

  // What `streetWords` answers (an object of its own) with the unit and city added, in the fields' order: spreading
  // it cost some 5 µs an address, a quarter of normalizing one.
  const line: StreetLine = streetWords(words) ?? {};
  if (unitType !== undefined) line.unitType = unitType;
  const unitText = unitWords.join(" ");
  if (unitText !== "") line.unit = unitText;
  if (city !== undefined && city !== "") line.city = city;
  return line;
}

/**
 * Where a street with no unit ends: after the last street type that has a name word (not only a directional)
 * before it, and the directional after it; the whole line when there is no such type, or when the type is a road
 * type followed by a number (`ROUTE 2`).
 */
function streetEnd(words: readonly string[]): number {
  for (let index = words.length - 1; index >= 1; index -= 1) {
    const type = suffixOf(words[index] ?? "");
    if (!type || !isTypeAt(words, index)) continue;
    const after = words.slice(index + 1);
    if (isHighwayType(type) && after.length === 1 && /^\d+[A-Z]?$/.test(after[0] ?? "")) return words.length;
    return index + 1 + (after[0] && directionalOf(after[0]) ? 1 : 0);
  }
  return words.length;
}

function trimHyphens(word: string): string {
  return word.startsWith("-") || word.endsWith("-") ? word.replace(/^-+|-+$/g, "") : word;
}

/**
 * The street's words split at `-` and `/` (`WINSTON-SALEM`, `SQ-2`), without a stray `#`. A loop, not `flatMap`,
 * which cost some 1.5 µs an address.
 */
function splitWords(words: readonly string[]): string[] {
  const parts: string[] = [];
  for (const word of words) {
    if (word === "#") continue;
    if (!word.includes("-") && !word.includes("/")) parts.push(word);
    else for (const part of word.split(/[-/]/)) if (part !== "") parts.push(part);
  }
  return parts;
}

/** Splits the words after a street or unit into unit-like words (with a digit, or one letter) and the rest. */
function splitTail(words: readonly string[]): [string[], string[]] {
  const plain = words.findIndex((word) => /^[A-Z]{2,}$/.test(word));
  return plain < 0 ? [[...words], []] : [words.slice(0, plain), words.slice(plain)];
}

/** Whether the word at `index` can be a street type: one, after a name word (not only directionals). */
function isTypeAt(words: readonly string[], index: number): boolean {
  return !!suffixOf(words[index] ?? "") && words.slice(0, index).some((word) => !directionalOf(word));
}

function acceptsCity(tail: readonly string[], mode: CityMode): boolean {
  if (mode === "any") return true;
  if (mode === "never") return false;
  return (tail[0] ?? "").length >= 3 && tail.every((word) => /^[A-Z]+$/.test(word) && !isStreetWord(word));
}

/**
 * The first unit designator after the first word, with its value: `#` takes any value; a word designator takes a
 * value with a digit, of one letter, or of two letters that are not a street word (`APT 4B`, `UNIT C`, `STE PH`; not
 * `PIER RD`); `REAR`, `PH`, … may also stand alone, at the end of the line or before words that are not a street
 * type or directional (`W SIDE DR` is a street). A designator that is also a street type (`TRAILER`, `KEY`) counts
 * only after another street type.
 */
export function findUnit(words: readonly string[]): { index: number; type: string; valueEnd: number } | undefined {
  for (let index = 1; index < words.length; index += 1) {
    const type = unitDesignatorOf(words[index] ?? "");
    if (!type || (suffixOf(words[index] ?? "") && !words.some((_, at) => at < index && isTypeAt(words, at)))) continue;
    let valueAt = index + 1;
    if (type !== "#" && words[valueAt] === "#") valueAt += 1;
    const value = words[valueAt];
    if (value !== undefined && (type === "#" || valueAt > index + 1 || isUnitValue(value))) {
      const fraction = /^\d+\/\d+$/.test(words[valueAt + 1] ?? "") ? 1 : 0;
      return { index, type, valueEnd: valueAt + 1 + fraction };
    }
    if (type === "#" || !isUnnumberedUnit(type)) continue;
    const next = words[index + 1];
    if (next === undefined ? standsAlone(words, index) : !suffixOf(next) && !directionalOf(next)) {
      return { index, type, valueEnd: index + 1 };
    }
  }
  return undefined;
}

/** A designator at the end of the line is a unit after a street type or two words, or when it is `REAR`. */
function standsAlone(words: readonly string[], index: number): boolean {
  return index >= 2 || words[index] === "REAR" || !!suffixOf(words[index - 1] ?? "");
}

/** Whether a word can be the value after a word designator (`APT 4B`, `UNIT C`, `STE PH`; not `PIER RD`). */
export function isUnitValue(word: string): boolean {
  return /\d/.test(word) || word.length === 1 || (word.length === 2 && !isStreetWord(word));
}
