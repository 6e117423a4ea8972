import type { Clock, TimerHandle } from "./clock.js";

/** By default the host hears when 5 minutes and when 1 minute are left. */
export const DEFAULT_THRESHOLDS_MS: readonly number[] = [5 * 60 * 1000, 60 * 1000];

export interface CountdownOptions {
  clock: Clock;
  /** Milliseconds the token has left, or null before the first one. */
  timeLeft: () => number | null;
  thresholdsMs?: readonly number[];
  onExpiring: (msLeft: number, threshold: number) => void;
  onExpired: () => void;
}

export interface Countdown {
  /** A new token arrived: every threshold may fire again. Re-evaluates at once. */
  reset(): void;
  /** Re-reads the time left (it may have jumped after sleep) and fires what is due. */
  update(): void;
  stop(): void;
}

/**
 * Fires `onExpiring` once per token as the time left crosses each threshold, and `onExpired` once when it runs
 * out. One timer is set for the next crossing only. When several thresholds were passed at once (the computer
 * slept), only the most urgent one fires — the host needs to say "1 minute left", not also "5 minutes left".
 *
 * @example
 * const countdown = createCountdown({
 *   clock, timeLeft: () => session.timeLeft(),
 *   onExpiring: (msLeft) => banner.show(msLeft), onExpired: () => banner.showEnded(),
 * });
 * session.subscribe((event) => event.type === "token" && countdown.reset());
 */
export function createCountdown(options: CountdownOptions): Countdown {
  const { clock } = options;
  const thresholds = [...(options.thresholdsMs ?? DEFAULT_THRESHOLDS_MS)].filter((t) => t > 0).sort((a, b) => b - a);
  const fired = new Set<number>();
  let expiredFired = false;
  let timer: TimerHandle | undefined;
  let stopped = false;

  const update = () => {
    if (stopped) return;
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    const left = options.timeLeft();
    if (left === null) return;
    if (left <= 0) {
      for (const threshold of thresholds) fired.add(threshold);
      if (!expiredFired) {
        expiredFired = true;
        options.onExpired();
      }
      return;
    }
    const crossed = thresholds.filter((threshold) => left <= threshold && !fired.has(threshold));
    for (const threshold of crossed) fired.add(threshold);
    const mostUrgent = crossed.at(-1);
    if (mostUrgent !== undefined) options.onExpiring(left, mostUrgent);
    if (stopped) return; // the listener may have destroyed the frame
    const next = thresholds.find((threshold) => !fired.has(threshold));
    timer = clock.setTimeout(
      () => {
        timer = undefined;
        update();
      },
      next === undefined ? left : left - next,
    );
  };

  return {
    reset() {
      fired.clear();
      expiredFired = false;
      update();
    },
    update,
    stop() {
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
    },
  };
}
