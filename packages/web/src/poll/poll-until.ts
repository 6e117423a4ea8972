import { ApiError } from "../api/api-error";

export interface PollOptions<T> {
  /** Whether `value` is final; polling stops with it. */
  done: (value: T) => boolean;
  /** Called with every value, final or not. */
  onValue?: (value: T) => void;
  /** Milliseconds to wait before the next call, after `calls` calls so far. */
  delay: (calls: number) => number;
  /** Stops polling (the promise then never settles). */
  signal?: AbortSignal;
}

/** How many failures in a row a poll rides out (the service restarting, a dropped connection) before giving up. */
const MAX_TRANSIENT_FAILURES = 5;

/**
 * Calls `read` until `done` says its value is final, waiting `delay(calls)` between calls, and resolves with that
 * value. Network failures and 5xx answers are retried a few times; any other error (a 404, the session ending)
 * rejects at once.
 */
export async function pollUntil<T>(read: () => Promise<T>, options: PollOptions<T>): Promise<T> {
  let calls = 0;
  let failures = 0;
  for (;;) {
    if (calls > 0) await sleep(options.delay(calls), options.signal);
    calls++;
    let value: T;
    try {
      value = await read();
      failures = 0;
    } catch (error) {
      if (!isTransient(error) || ++failures > MAX_TRANSIENT_FAILURES) throw error;
      continue;
    }
    options.onValue?.(value);
    if (options.done(value)) return value;
  }
}

function isTransient(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return;
    const timer = window.setTimeout(resolve, milliseconds);
    signal?.addEventListener("abort", () => window.clearTimeout(timer), { once: true });
  });
}
