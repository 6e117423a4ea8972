/**
 * The wait a `Retry-After` header asks for, in milliseconds (RFC 9110 §10.2.3): either delay-seconds or an HTTP
 * date. Undefined when absent or unreadable. A date in the past means "now" (0).
 *
 * @example
 * ```ts
 * retryAfterMs("120", Date.now()); // 120000
 * retryAfterMs("Wed, 21 Oct 2026 07:28:00 GMT", Date.now());
 * ```
 */
export function retryAfterMs(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date ("Sun, 06 Nov 1994 08:49:37 GMT") always names its day and month; Date.parse alone would take
  // "-5" for a year. It names a wall-clock instant, so it can only be compared with the wall clock.
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
