import type { AddressQuery } from "./address-query.js";
import { foldSegments, words } from "./fold.js";
import { readHouseNumber } from "./house-number.js";
import { normalizeAddress } from "./normalize-address.js";
import { streetKey } from "./street-key.js";
import { findUnit } from "./street-line.js";
import { streetWords } from "./street-words.js";
import { directionalOf, directionalSpellings, nameWordOf, suffixSpellings } from "./usps-tables.js";

/**
 * Reads text being typed into an address search box, tolerating a half-typed last word. Once a comma or a unit
 * follows the street, the street is taken as finished and read by {@link normalizeAddress} (`streetPrefixes` is
 * then its one street key, and unit and place are filled in). Before that, the street words are read as far as they
 * go, and the last word — unless the text ends with a space — may still be growing: it may continue the name
 * (`120 mass` → `MASS`), begin a suffix (`120 gore stre` → `GORE ST`, a suffix spelled out being abbreviated in the
 * key), begin a directional after the suffix (`elm st no` → `ELM ST N`) or, as the first word, before the name
 * (`nor` → `N `). `streetPrefixes` holds a prefix for each reading.
 *
 * Not handled: a half-typed `SAIN`/`MOUN` does not find `ST …`/`MT …` until the word is complete; the place is
 * only read after a comma.
 *
 * @example parseQuery("120 gore s") // { number: "120", …, streetPrefixes: ["GORE S"], streetPrefix: "GORE S", suffixPrefix: "S", suffixes: [...] }
 * @example parseQuery("120 gore stre").streetPrefixes // ["GORE ST"]
 * @example parseQuery("350 north ma").streetPrefixes // ["N MA", "NORTH MA", "NORTH MNR"]
 */
export function parseQuery(text: string): AddressQuery {
  const segments = foldSegments(text);
  const line = segments[0] ?? "";
  const house = readHouseNumber(line);
  const typed = words(house ? house.rest : line);
  const number = house
    ? {
        number: house.number.text,
        ...(house.number.low !== undefined && { numberLow: house.number.low, numberHigh: house.number.high }),
      }
    : {};

  if (segments.length > 1 || /,\s*$/.test(text) || findUnit(typed)) {
    const address = normalizeAddress(text);
    if (address) {
      const key = streetKey(address);
      const { unitType, unit, city, state, postcode } = address;
      return {
        ...number,
        streetPrefixes: [key],
        streetPrefix: key,
        ...(unitType && { unitType }),
        ...(unit && { unit }),
        ...(city && { city }),
        ...(state && { state }),
        ...(postcode && { postcode }),
      };
    }
  }

  const growing = typed.length > 0 && !/\s$/.test(text);
  const done = growing ? typed.slice(0, -1) : typed;
  const half = growing ? typed.at(-1) : undefined;
  const suffixes = half !== undefined && done.length > 0 ? startingWith(suffixSpellings(), half) : [];
  const prefixes = new Set<string>();

  // The name goes on: the words so far as name words (a first directional either way), then the growing word.
  for (const head of heads(done)) prefixes.add(join(head, half ?? (done.length > 0 ? " " : "")));
  // The street is complete as typed.
  const whole = streetWords(typed);
  if (whole) prefixes.add(streetKey(whole));
  // The growing word begins a suffix, or a directional after the suffix, or a directional before the name.
  for (const suffix of suffixes) addKey(prefixes, [...done, suffix]);
  if (half !== undefined && streetWords(done)?.suffix) {
    for (const direction of startingWith(directionalSpellings(), half)) addKey(prefixes, [...done, direction]);
  }
  if (half !== undefined && done.length === 0) {
    for (const direction of startingWith(directionalSpellings(), half)) prefixes.add(`${direction} `);
  }

  const streetPrefixes = minimal([...prefixes]);
  return {
    ...number,
    streetPrefixes,
    streetPrefix: commonPrefix(streetPrefixes),
    ...(suffixes.length > 0 && { suffixPrefix: half, suffixes }),
  };
}

/** The ways to read complete words followed by more of the name: a leading directional as predir or as a word. */
function heads(done: readonly string[]): string[][] {
  const names = done.map((word) => nameWordOf(word) ?? word);
  const direction = directionalOf(done[0] ?? "");
  if (!direction || direction === done[0]) return [names];
  return [
    [direction, ...names.slice(1)],
    [done[0] ?? "", ...names.slice(1)],
  ];
}

function join(head: readonly string[], tail: string): string {
  if (head.length === 0) return tail.trim();
  return tail === " " ? `${head.join(" ")} ` : `${head.join(" ")} ${tail}`;
}

function addKey(prefixes: Set<string>, typed: readonly string[]): void {
  const street = streetWords(typed);
  if (street) prefixes.add(streetKey(street));
}

/** The codes of a spelling table that some spelling starting with `start` stands for, sorted. */
function startingWith(table: ReadonlyMap<string, string>, start: string): string[] {
  const codes = new Set<string>();
  for (const [spelling, code] of table) if (spelling.startsWith(start)) codes.add(code);
  return [...codes].sort();
}

/** The prefixes of which no other is a prefix, sorted. */
function minimal(prefixes: readonly string[]): string[] {
  const sorted = [...new Set(prefixes)].sort();
  return sorted.filter((prefix) => !sorted.some((other) => other !== prefix && prefix.startsWith(other)));
}

function commonPrefix(prefixes: readonly string[]): string {
  const [first = "", ...others] = prefixes;
  let length = first.length;
  for (const other of others) {
    length = Math.min(length, other.length);
    while (length > 0 && other.slice(0, length) !== first.slice(0, length)) length -= 1;
  }
  return first.slice(0, length);
}
