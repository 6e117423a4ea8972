/**
 * What {@link parseQuery} makes of text being typed into an address search box.
 *
 * @example
 * // parseQuery("120 gore s")
 * const query: AddressQuery = {
 *   number: "120", numberLow: 120, numberHigh: 120,
 *   streetPrefixes: ["GORE S"], streetPrefix: "GORE S",
 *   suffixPrefix: "S", suffixes: ["SHL", "SHLS", "SHR", …, "ST", "STA", …],
 * };
 */
export interface AddressQuery {
  /** The house number as typed so far, read as {@link normalizeAddress} reads one (`12` may become `120`). */
  number?: string;
  numberLow?: number;
  numberHigh?: number;
  /**
   * Prefixes of `streetKey`: every street whose key starts with one of them can complete the text, and no other.
   * The set is minimal (none is a prefix of another) and sorted; `[""]` when no street word is typed yet.
   */
  streetPrefixes: string[];
  /** The longest common prefix of `streetPrefixes`: one range scan (`key >= p and key < p + "\uffff"`) finds them all. */
  streetPrefix: string;
  /** The half-typed last word when it can begin a street suffix (`S`, `STRE`, `AVENU`). */
  suffixPrefix?: string;
  /** The standard suffixes it can begin, by any spelling (`STRE` → `ST`, `STRM`, `STS`), sorted. */
  suffixes?: string[];
  /** Set once the street is finished (a comma or a unit follows it), as {@link normalizeAddress} reads them. */
  unitType?: string;
  unit?: string;
  city?: string;
  state?: string;
  postcode?: string;
}
