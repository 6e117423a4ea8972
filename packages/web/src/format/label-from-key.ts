/** Unit suffixes of the API's keys, as a reader writes them. */
const UNITS: ReadonlyArray<readonly [suffix: string, unit: string]> = [
  ["_m2", "m²"],
  ["_ft2", "ft²"],
  ["_km", "km"],
  ["_ms", "ms"],
  ["_m", "m"],
];

/** Words the API abbreviates or writes in lower case that a reader expects otherwise. */
const WORDS: Readonly<Record<string, string>> = { id: "ID", ids: "IDs", url: "URL", fips: "FIPS", usps: "USPS" };

/**
 * A readable label for an API key: words split on `_`, `-` and camel case, the first capitalized, a unit suffix in
 * parentheses.
 *
 * @example labelFromKey("area_m2") // "Area (m²)"
 * @example labelFromKey("primary_building_id") // "Primary building ID"
 * @example labelFromKey("within_10_m") // "Within 10 m"
 * @example labelFromKey("FLD_ZONE") // "Fld zone"
 */
export function labelFromKey(key: string): string {
  const unit = UNITS.find(([suffix]) => key.toLowerCase().endsWith(suffix) && key.length > suffix.length);
  const stem = unit ? key.slice(0, -unit[0].length) : key;
  const words = stem
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[_\-\s]+/)
    .filter((word) => word !== "")
    .map((word) => WORDS[word.toLowerCase()] ?? word.toLowerCase());
  const [first = "", ...rest] = words;
  const label = [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ");
  if (!unit) return label;
  // "within_10_m" reads "Within 10 m"; "area_m2" reads "Area (m²)".
  return /\d$/.test(label) ? `${label} ${unit[1]}` : `${label} (${unit[1]})`;
}
