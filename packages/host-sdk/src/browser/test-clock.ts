import { vi } from "vitest";
import type { Clock } from "./clock.js";

/**
 * A clock on vitest's fake timers. `now()` is the monotonic clock, `wallNow()` the wall clock; `sleep` moves time
 * on without firing a timer, as a suspended computer or a frozen background tab does.
 */
export function fakeClock() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  vi.setSystemTime(1_700_000_000_000);
  const start = Date.now();
  let uncounted = 0;
  const clock: Clock = {
    now: () => Date.now() - start - uncounted,
    wallNow: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  return {
    clock,
    /** Runs timers (and the promises they settle) for `ms`. */
    advance: (ms: number) => vi.advanceTimersByTimeAsync(ms),
    /**
     * Time passes with no timer firing. `monotonic: false` is a browser whose `performance.now()` also stopped
     * while the computer slept: only the wall clock moves.
     */
    sleep(ms: number, { monotonic = true } = {}) {
      // setSystemTime keeps each pending timer's remaining delay: they fire as late as frozen timers do.
      vi.setSystemTime(Date.now() + ms);
      if (!monotonic) uncounted += ms;
    },
    /** Someone sets the computer's clock: only the wall clock moves. */
    setWallClock(deltaMs: number) {
      vi.setSystemTime(Date.now() + deltaMs);
      uncounted += deltaMs;
    },
  };
}

/** A fetchToken whose answers the test decides: each call waits for `resolve`/`reject` of that call. */
export function controlledFetch() {
  const calls: Array<{ resolve: (expiresIn: number, token?: string) => void; reject: (error: Error) => void }> = [];
  const fetchToken = vi.fn(
    () =>
      new Promise<{ token: string; expiresIn: number }>((resolve, reject) => {
        const n = calls.length + 1;
        calls.push({ resolve: (expiresIn, token = `token-${n}`) => resolve({ token, expiresIn }), reject });
      }),
  );
  return { fetchToken, calls, last: () => calls.at(-1) };
}
