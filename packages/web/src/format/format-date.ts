import { LOCALE } from "./format-number";

/**
 * A calendar date (`YYYY-MM-DD`) as a readable date, without shifting it across time zones.
 *
 * @example formatDate("2027-01-31") // "Jan 31, 2027"
 */
export function formatDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  const utc = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeZone: "UTC" }).format(utc);
}
