import { directionalOf, isHighwayType, nameWordOf, ordinalOf, suffixName, suffixOf } from "./usps-tables.js";

export interface StreetWords {
  predir?: string;
  street: string;
  suffix?: string;
  postdir?: string;
}

/**
 * Splits the words of a street (no number, unit or place) into directionals, name and suffix. A word is only taken
 * as a suffix or directional when a name word is left: `NORTH ST` is a street named North, `N ST` one named N,
 * `AVENUE N` one named Avenue N. A road type followed by a number names a numbered road, spelled out
 * (`COUNTY RD 12` → `COUNTY ROAD 12`). Inside the name `SAINT`, `MOUNT`, `FORT` become `ST`, `MT`, `FT` (not as its
 * last word) and a spelled ordinal that is the whole name becomes a numeral (`SIXTH` → `6TH`).
 *
 * @example streetWords(["NORTH", "MAIN", "STREET"]) // { predir: "N", street: "MAIN", suffix: "ST" }
 */
export function streetWords(words: readonly string[]): StreetWords | undefined {
  const name = words.filter((word) => word !== "#" && word !== "");
  let predir: string | undefined;
  let suffix: string | undefined;
  let postdir: string | undefined;

  const last = name.at(-1) ?? "";
  const beforeLast = name.at(-2) ?? "";
  if (name.length >= 2 && /^\d+[A-Z]?$/.test(last) && isHighwayType(suffixOf(beforeLast))) {
    name[name.length - 2] = suffixName(suffixOf(beforeLast) ?? beforeLast);
  } else {
    const first = name[0] ?? "";
    const direction = name.length >= 2 ? directionalOf(last) : undefined;
    if (direction && (name.length >= 3 || (!suffixOf(first) && !directionalOf(first)))) {
      postdir = direction;
      name.pop();
    }
    const type = name.length >= 2 ? suffixOf(name.at(-1) ?? "") : undefined;
    if (type) {
      suffix = type;
      name.pop();
    }
  }
  const leading = name.length >= 2 ? directionalOf(name[0] ?? "") : undefined;
  if (leading) {
    predir = leading;
    name.shift();
  }

  const street = nameWords(name).join(" ");
  if (!/[A-Z]/.test(street)) return undefined;
  // Written field by field, in their order, leaving out what is absent: this runs for every address.
  const parts: StreetWords = predir === undefined ? { street } : { predir, street };
  if (suffix !== undefined) parts.suffix = suffix;
  if (postdir !== undefined) parts.postdir = postdir;
  return parts;
}

/** The standard forms of the words of a street name (see {@link streetWords}). */
export function nameWords(name: readonly string[]): string[] {
  if (name.length === 1) return [ordinalOf(name[0] ?? "") ?? name[0] ?? ""];
  return name.map((word, index) => (index < name.length - 1 ? (nameWordOf(word) ?? word) : word));
}
