/** By default a token is refreshed this long before it expires. */
export const DEFAULT_REFRESH_MARGIN_MS = 2 * 60 * 1000;

/**
 * How long after a token arrives to fetch the next one: `marginMs` before it expires, or halfway through its life
 * when it is too short for that — so a short token never makes the host refresh in a tight loop, and the page
 * still has half of its life to take the next one.
 *
 * @example
 * refreshDelay(3_600_000, 120_000) // 3_480_000: 58 minutes into a one-hour token
 * refreshDelay(180_000, 120_000) // 90_000: a three-minute token is refreshed after half its life
 */
export function refreshDelay(lifetimeMs: number, marginMs: number = DEFAULT_REFRESH_MARGIN_MS): number {
  return lifetimeMs > 2 * marginMs ? lifetimeMs - marginMs : lifetimeMs / 2;
}

/**
 * The default margin for a frame warning its user at `thresholdsMs`: a minute before the earliest warning (and
 * never under two minutes), so a healthy session is renewed before the user is ever told it is ending — the
 * warnings then mean that refreshes are failing.
 *
 * @example
 * defaultRefreshMargin([300_000, 60_000]) // 360_000
 * defaultRefreshMargin([]) // 120_000
 */
export function defaultRefreshMargin(thresholdsMs: readonly number[]): number {
  return Math.max(DEFAULT_REFRESH_MARGIN_MS, ...thresholdsMs.map((threshold) => threshold + 60_000));
}
