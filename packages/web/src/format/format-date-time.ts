import { LOCALE } from "./format-number";

/**
 * An ISO 8601 timestamp as a readable date and time in the browser's time zone; the text itself when it is not a
 * timestamp.
 *
 * @example formatDateTime("2026-11-22T10:00:00.000Z") // "Nov 22, 2026, 10:00 AM" (in UTC)
 */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short" }).format(date);
}
