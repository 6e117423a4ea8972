/**
 * A US street address in standard form: every field upper case, USPS Publication 28 abbreviations, no
 * punctuation but `-` and `/` inside a number or unit. Fields that the text did not hold are absent.
 *
 * @example
 * // "30-32 Sciarappa Street, Cambridge, Massachusetts 02141-1234"
 * const address: NormalizedAddress = {
 *   number: "30-32", numberLow: 30, numberHigh: 32, street: "SCIARAPPA", suffix: "ST",
 *   city: "CAMBRIDGE", state: "MA", postcode: "02141", plus4: "1234",
 * };
 */
export interface NormalizedAddress {
  /** The house number as written: `120`, `30-32`, `12A`, `12 1/2`, `107.5-109`. */
  number?: string;
  /** The smallest and largest numeric values in `number` (`12 1/2` → 12.5 and 12.5; `30-32` → 30 and 32). */
  numberLow?: number;
  numberHigh?: number;
  /** Directional before the name: `N`, `NE`, … */
  predir?: string;
  /** The street name without directionals or suffix: `GORE`, `MONSIGNOR OBRIEN`, `ST GERARD`, `6TH`. */
  street: string;
  /** USPS standard suffix abbreviation: `ST`, `AVE`, `HWY`. */
  suffix?: string;
  /** Directional after the suffix: `ELM ST N`. */
  postdir?: string;
  /** USPS unit designator (`APT`, `STE`, `UNIT`, `FL`, `REAR`, …) or `#` where none was written. */
  unitType?: string;
  /** The unit: `4B`, `2`, `C-201`, `1/1`. */
  unit?: string;
  city?: string;
  /** Two-letter USPS state code. */
  state?: string;
  /** Five-digit ZIP code. */
  postcode?: string;
  /** The four digits of a ZIP+4, when given. */
  plus4?: string;
}
