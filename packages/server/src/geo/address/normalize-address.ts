import { foldSegments, words } from "./fold.js";
import { type HouseNumber, readHouseNumber } from "./house-number.js";
import type { NormalizedAddress } from "./normalized-address.js";
import { type Place, readPlaceSegments, readPlaceTail } from "./place.js";
import { RecentReadings } from "./recent-readings.js";
import { type CityMode, isUnitValue, readStreetLine } from "./street-line.js";
import { directionalOf, isUnnumberedUnit, stateOf, suffixOf, unitDesignatorOf } from "./usps-tables.js";

/** The places (after the commas) met lately: a file's lines repeat a few towns. */
const recentPlaces = new RecentReadings<Place>(1024);

/** What an address is assumed to lie in when its text does not say (an importer's city, say). */
export interface AddressDefaults {
  city?: string | undefined;
  state?: string | undefined;
  postcode?: string | undefined;
}

/**
 * Normalizes a one-line US street address (see {@link NormalizedAddress}), or returns `undefined` when the text
 * holds no street (empty, a bare number, a PO box).
 *
 * - Text: case, accents, punctuation and spacing folded; `O'Brien` → `OBRIEN`; `(…)` dropped.
 * - House number at the start: `12`, `12A`, `12.5`, `12 1/2`, ranges `12-14` / `12 - 14` / `1-3-5`, with their
 *   numeric low and high.
 * - Street: USPS suffixes and directionals abbreviated (`North Main Street` → `N MAIN ST`), only when a name word
 *   is left (`100 North St` is a street named North); `SAINT`/`MOUNT`/`FORT` inside a name → `ST`/`MT`/`FT`;
 *   `FIRST`…`TWENTIETH` as a whole name → `1ST`…`20TH`; numbered roads spelled out (`STATE HWY 9` →
 *   `STATE HIGHWAY 9`).
 * - Unit: a USPS designator or `#` with its value (`APT 4B`, `# 3`, `STE 200`, `REAR`), after the street or in a
 *   comma segment of its own; words after the street type that are not a city become a `#` unit (`126 OXFORD ST
 *   PS1`).
 * - Place: after commas, `CITY, STATE ZIP` in any of the usual arrangements; without commas a trailing
 *   `STATE ZIP` (and the words between street and state as the city), or a trailing city when it is plain words.
 *   States become two-letter codes, ZIP+4 is split into `postcode` and `plus4`. `defaults` fill what is absent; a
 *   line ending with `defaults.city` has it read as the city.
 *
 * @example normalizeAddress("30-32 Sciarappa Street Unit 2") // { number: "30-32", numberLow: 30, numberHigh: 32, street: "SCIARAPPA", suffix: "ST", unitType: "UNIT", unit: "2" }
 * @example normalizeAddress("350 Main St, Cambridge, Massachusetts 02142-1234")?.state // "MA"
 */
export function normalizeAddress(text: string, defaults: AddressDefaults = {}): NormalizedAddress | undefined {
  const segments = foldSegments(text);
  const [first = "", ...others] = segments;
  if (first === "" || /^(?:P ?O|POST OFFICE) ?BOX\b/.test(first)) return undefined;

  let line = first;
  const placeSegments: string[] = [];
  for (const segment of others) {
    if (isUnitSegment(segment)) line = `${line} ${segment}`;
    else placeSegments.push(segment);
  }

  const leading = leadingUnit(line);
  if (leading) line = line.slice(leading.word.length + 1);
  const house = readHouseNumber(line);
  const rest = words(house ? house.rest : line);
  if (house && /\d$/.test(house.number.text) && isNumberLetter(rest)) house.number.text += rest.shift();

  const defaultCity = defaults.city ? foldSegments(defaults.city).join(" ") || undefined : undefined;
  const place: Place =
    placeSegments.length > 0
      ? recentPlaces.get(placeSegments.join(","), () => readPlaceSegments(placeSegments))
      : readPlaceTail(rest);
  const mode: CityMode =
    place.state !== undefined || place.postcode !== undefined
      ? place.city === undefined
        ? "any"
        : "never"
      : place.city !== undefined || defaultCity !== undefined
        ? "never"
        : "plain";
  const street = readStreetLine(rest, mode, place.city === undefined ? defaultCity : undefined);
  if (street.street === undefined) return undefined;

  const unitType = street.unitType ?? leading?.type;
  const city = place.city ?? street.city ?? defaultCity;
  const state = place.state ?? defaultState(defaults.state);
  const postcode = place.postcode ?? /^\d{5}/.exec(defaults.postcode?.trim() ?? "")?.[0];
  // Written field by field, in their order, leaving out what the text did not hold: this runs for every address.
  const address = house ? numbered(house.number) : ({} as NormalizedAddress);
  if (street.predir !== undefined) address.predir = street.predir;
  address.street = street.street;
  if (street.suffix !== undefined) address.suffix = street.suffix;
  if (street.postdir !== undefined) address.postdir = street.postdir;
  if (unitType !== undefined) address.unitType = unitType;
  if (street.unit !== undefined) address.unit = street.unit;
  if (city !== undefined && city !== "") address.city = city;
  if (state !== undefined && state !== "") address.state = state;
  if (postcode !== undefined) address.postcode = postcode;
  if (postcode === place.postcode && place.plus4 !== undefined) address.plus4 = place.plus4;
  return address;
}

/** An address begun with its house number, its other fields to follow. */
function numbered(number: HouseNumber): NormalizedAddress {
  const address = { number: number.text } as NormalizedAddress;
  if (number.low !== undefined) {
    address.numberLow = number.low;
    address.numberHigh = number.high;
  }
  return address;
}

/** A comma segment that is a unit (`APT 4`, `# 3`, `REAR`) rather than a place (`FL 33101`, `KEY WEST`). */
function isUnitSegment(segment: string): boolean {
  // Most such segments are a town or a state: their first word is enough to tell.
  const space = segment.indexOf(" ");
  const type = unitDesignatorOf(space < 0 ? segment : segment.slice(0, space));
  if (!type) return false;
  const [designator = "", value, ...more] = words(segment);
  if (more.length > 1) return false;
  if (value === undefined) return type !== "#" && isUnnumberedUnit(type);
  if (stateOf(designator) && /^\d{5}/.test(value)) return false;
  return type === "#" || isUnitValue(value);
}

/**
 * Whether the first word after a house number is a letter of that number (`12 A PLYMPTON ST` → `12A`, `18 R ASH
 * ST` → `18R`): one letter, not a directional, followed by a street of at least two words that does not start with a
 * letter or street type (`1 A ST` is A Street, `100 J F KENNEDY ST` keeps its initials).
 */
function isNumberLetter(rest: readonly string[]): boolean {
  const [letter = "", next = ""] = rest;
  return /^[A-Z]$/.test(letter) && !directionalOf(letter) && rest.length >= 3 && next.length >= 2 && !suffixOf(next);
}

/** A designator written before the house number (`REAR 65 MT AUBURN ST`). */
function leadingUnit(line: string): { word: string; type: string } | undefined {
  // The first word found without splitting the line: this runs for every address.
  const space = line.indexOf(" ");
  if (space < 0) return undefined;
  const word = line.slice(0, space);
  const type = unitDesignatorOf(word);
  return type && isUnnumberedUnit(type) && /^\d/.test(line.slice(space + 1)) ? { word, type } : undefined;
}

function defaultState(state: string | undefined): string | undefined {
  if (!state) return undefined;
  const folded = foldSegments(state).join(" ");
  return stateOf(folded) ?? (folded || undefined);
}
