/** The longest wait a receiver may ask for: retries go on for about a day (DESIGN.md §8). */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A `Retry-After` header (RFC 9110 §10.2.3) as milliseconds to wait from `now` (epoch ms): delay-seconds, or
 * an HTTP-date (one of its three forms, all starting with the weekday; a date in the past is 0). Capped at {@link MAX_RETRY_AFTER_MS}; `undefined` when absent or
 * unreadable.
 *
 * @example
 * parseRetryAfter("7", Date.now()) // 7000
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let wait: number;
  if (/^\d+$/.test(text)) {
    wait = Number(text) * 1000;
  } else if (/^(mon|tue|wed|thu|fri|sat|sun)/i.test(text)) {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    wait = Math.max(0, at - now);
  } else {
    return undefined;
  }
  return Math.min(wait, MAX_RETRY_AFTER_MS);
}
