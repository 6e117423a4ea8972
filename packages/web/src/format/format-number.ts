/** The pages speak US English, the language of the interface, whatever the browser's locale. */
export const LOCALE = "en-US";

/**
 * A number with thousands separators and at most `maxDigits` decimals.
 *
 * @example formatNumber(1959.4) // "1,959.4"
 * @example formatNumber(1959.4, 0) // "1,959"
 */
export function formatNumber(value: number, maxDigits = 2): string {
  return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: maxDigits }).format(value);
}
