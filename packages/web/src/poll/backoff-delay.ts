/**
 * About once a second at first, then less and less often (×1.5 a call) up to `maxMs`: quick feedback for what
 * usually finishes in seconds, little load for what takes longer (a webhook retried over hours).
 *
 * @example [1, 5, 6, 20].map((calls) => backoffDelay(calls)) // [1000, 1000, 1500, 30000]
 */
export function backoffDelay(calls: number, { fastCalls = 5, firstMs = 1000, maxMs = 30_000 } = {}): number {
  if (calls <= fastCalls) return firstMs;
  return Math.min(maxMs, Math.round(firstMs * 1.5 ** (calls - fastCalls)));
}
