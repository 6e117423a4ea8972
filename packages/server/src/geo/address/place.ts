import {
  COUNTRY_NAMES,
  isStreetWord,
  STATE_NAME_MAX_WORDS,
  stateOf,
  suffixOf,
  unitDesignatorOf,
} from "./usps-tables.js";

export interface Place {
  city?: string;
  state?: string;
  postcode?: string;
  plus4?: string;
}

const ZIP = /^(\d{5})(?:-?(\d{4}))?$/;

/**
 * Reads the place segments of an address written with commas (`CAMBRIDGE`, `MA 02142-1234`): from the end a
 * country, a ZIP or ZIP+4, a state (code or name), and what is left is the city. A state name standing alone is
 * taken as a city (`…, NEW YORK`), a state code standing alone as a state (`…, MA`).
 */
export function readPlaceSegments(segments: readonly string[]): Place {
  const words = segments.join(" ").split(" ");
  dropCountry(words);
  const place: Place = { ...readZip(words, 0) };
  const state = readState(words, 0, (_code, spelled, rest) => !spelled || rest > 0 || place.postcode !== undefined);
  if (state) place.state = state;
  if (words.length > 0) place.city = words.join(" ");
  return place;
}

/**
 * Reads a ZIP and state off the end of a street line written without commas (`350 MAIN ST CAMBRIDGE MA 02142`),
 * removing them from `words`. Leaves at least one word. A ZIP is not one after `#` or a unit designator (`APT
 * 12345`); a state without a ZIP is only read once the words before it hold a street type or a unit, and a
 * two-letter code that is also a street word (`CT`, `NE`, `LA`, `FL`) only before a ZIP.
 */
export function readPlaceTail(words: string[]): Place {
  const country = COUNTRY_NAMES.find((name) => endsWith(words, name) && words.length > name.length + 1);
  if (country) {
    const before = words.slice(0, words.length - country.length);
    if (ZIP.test(before.at(-1) ?? "") || stateOf(before.at(-1) ?? "")) words.splice(before.length);
  }
  const place: Place = { ...readZip(words, 1) };
  const state = readState(words, 1, (code, spelled, rest) => {
    const previous = words[rest - 1] ?? "";
    if (previous === "#" || (unitDesignatorOf(previous) && !stateOf(previous))) return false;
    if (place.postcode !== undefined) return true;
    if (!spelled && isStreetWord(code)) return false;
    return words.slice(1, rest).some((word) => suffixOf(word) || unitDesignatorOf(word));
  });
  if (state) place.state = state;
  return place;
}

/** Removes a trailing country name (`USA`, `UNITED STATES`). */
function dropCountry(words: string[]): void {
  const country = COUNTRY_NAMES.find((name) => endsWith(words, name));
  if (country) words.splice(words.length - country.length);
}

/** Removes and returns a trailing ZIP (`02142`, `02142-1234`, `021421234`, `02142 1234`), leaving `keep` words. */
function readZip(words: string[], keep: number): Pick<Place, "postcode" | "plus4"> {
  const split = words.length >= keep + 2 && /^\d{4}$/.test(words.at(-1) ?? "") && /^\d{5}$/.test(words.at(-2) ?? "");
  const token = split ? `${words.at(-2)}-${words.at(-1)}` : (words.at(-1) ?? "");
  const match = ZIP.exec(token);
  const count = split ? 2 : 1;
  if (!match?.[1] || words.length < keep + count) return {};
  const previous = words[words.length - count - 1] ?? "";
  if (keep > 0 && (previous === "#" || (unitDesignatorOf(previous) && !stateOf(previous)))) return {};
  words.splice(words.length - count);
  return { postcode: match[1], ...(match[2] && { plus4: match[2] }) };
}

/**
 * Removes and returns a trailing state, trying the longest names first, when `accept(code, spelled, rest)` agrees
 * (`spelled`: written as a name; `rest`: how many words would remain). Leaves `keep` words.
 */
function readState(
  words: string[],
  keep: number,
  accept: (code: string, spelled: boolean, rest: number) => boolean,
): string | undefined {
  for (let count = Math.min(STATE_NAME_MAX_WORDS, words.length - keep); count >= 1; count -= 1) {
    const text = words.slice(words.length - count).join(" ");
    const code = stateOf(text);
    if (code && accept(code, text !== code, words.length - count)) {
      words.splice(words.length - count);
      return code;
    }
  }
  return undefined;
}

function endsWith(words: readonly string[], tail: readonly string[]): boolean {
  return words.length >= tail.length && tail.every((word, index) => words[words.length - tail.length + index] === word);
}
