export interface BackoffOptions {
  /** The ceiling of the first retry's delay. */
  baseMs?: number;
  /** No delay is longer than this. */
  maxMs?: number;
  /** A number in [0, 1); `Math.random` unless a test fixes it. */
  random?: () => number;
}

/**
 * The delay before retrying after failed attempt number `attempt` (1 for the first): exponential backoff with
 * full jitter (AWS Architecture Blog, "Exponential Backoff and Jitter"), a uniform pick in
 * `[0, min(maxMs, baseMs · 2^(attempt − 1)))`. Full jitter spreads the retries of many jobs that failed together
 * (a receiver that was down) instead of bringing them back in waves; its expected delay is half the ceiling.
 *
 * @example
 * backoffMs(1); // 0–1 s
 * backoffMs(5); // 0–16 s
 * backoffMs(20); // 0–1 h
 */
export function backoffMs(
  attempt: number,
  { baseMs = 1000, maxMs = 3_600_000, random = Math.random }: BackoffOptions = {},
): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 52);
  const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
  return Math.floor(Math.min(Math.max(random(), 0), 1) * ceiling);
}
