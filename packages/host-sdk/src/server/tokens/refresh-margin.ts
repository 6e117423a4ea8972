/** Five minutes: ample for a 24-hour token, and more than any clock skew or slow request. */
const DEFAULT_MARGIN_MS = 5 * 60_000;

/**
 * How long before expiry a token of `lifetimeMs` is replaced. By default five minutes, or a tenth of the lifetime
 * when that is shorter, so a short-lived token is still reused for most of its life. A configured margin is capped
 * at half the lifetime for the same reason.
 */
export function refreshMarginMs(lifetimeMs: number, configuredSeconds?: number): number {
  if (configuredSeconds !== undefined) return Math.min(configuredSeconds * 1000, lifetimeMs / 2);
  return Math.min(DEFAULT_MARGIN_MS, lifetimeMs / 10);
}
