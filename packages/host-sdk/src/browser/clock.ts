/** A timer handle as the clock's `setTimeout` returns it (a number in browsers, an object in Node). */
export type TimerHandle = unknown;

/**
 * Where the SDK reads time and sets timers. Injected so that the refresh rules can be tested with fake timers.
 *
 * `now` is monotonic (milliseconds, `performance.now()` in a browser): token lifetimes are counted on it, so a
 * wrong or changed computer clock cannot shorten or stretch a session. `wallNow` (`Date.now()`) is used only to
 * notice time the monotonic clock did not count — some browsers stop `performance.now()` while the computer
 * sleeps, while the token's lifetime at the server goes on running.
 */
export interface Clock {
  now(): number;
  wallNow?(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The browser's clock: `performance.now()`, `Date.now()` and the global timers.
 *
 * @example
 * const clock = browserClock();
 * clock.setTimeout(() => console.log(clock.now()), 1000);
 */
export function browserClock(): Clock {
  return {
    now: () => performance.now(),
    wallNow: () => Date.now(),
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    // The handle came from globalThis.setTimeout just above, whatever its type on this platform.
    clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
  };
}
