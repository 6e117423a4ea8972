/** How failed refreshes are retried: exponential from `baseMs`, never waiting longer than `capMs`. */
export interface RetryPolicy {
  baseMs: number;
  capMs: number;
}

/** 5 s, 10 s, 20 s, 40 s, then every 60 s for as long as it takes. */
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 5_000, capMs: 60_000 };

/**
 * The wait before retry number `attempt` (1 for the first retry after one failure). Capped rather than growing
 * without bound, because a host that comes back online should get its session back within a minute, even after
 * an hour of failures.
 *
 * @example
 * retryDelay(1) // 5_000
 * retryDelay(3) // 20_000
 * retryDelay(50) // 60_000
 */
export function retryDelay(attempt: number, policy: RetryPolicy = DEFAULT_RETRY): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
}
