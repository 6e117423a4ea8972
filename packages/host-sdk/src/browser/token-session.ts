import type { Clock, TimerHandle } from "./clock.js";
import { checkIframeToken, type FetchToken } from "./fetch-token.js";
import { DEFAULT_REFRESH_MARGIN_MS, refreshDelay } from "./refresh-delay.js";
import { DEFAULT_RETRY, type RetryPolicy, retryDelay } from "./retry-delay.js";

/** What a token session tells the frames that share it. */
export type TokenSessionEvent =
  /** A token arrived. `lapsed`: the previous token had already expired when it did. */
  | { type: "token"; token: string; expiresIn: number; lapsed: boolean }
  /** A fetch failed; `attempt` counts consecutive failures. Another attempt is already scheduled. */
  | { type: "failed"; error: unknown; attempt: number }
  /** Time passed that the monotonic clock did not count (the computer slept): the deadline moved closer. */
  | { type: "adjusted" };

export interface TokenSessionOptions {
  fetchToken: FetchToken;
  clock: Clock;
  /** Refresh this long before expiry (half the life for tokens shorter than twice this). */
  refreshMarginMs?: number;
  retry?: RetryPolicy;
  /** Subscribes to the moments the page may have been asleep (tab shown, back online, page restored). */
  listenForWake?: (onWake: () => void) => () => void;
  /** How often a timer checks for a missed refresh, as browsers delay timers in background tabs. */
  heartbeatMs?: number;
}

/** One iframe JWT kept fresh for every frame mounted with the same `fetchToken`. */
export interface TokenSession {
  /** Fetches the first token unless one is there or on its way. */
  start(): void;
  /** The current token, or undefined before the first one or once it has expired. */
  token(): string | undefined;
  /** Milliseconds the current token has left (0 once expired), or null before the first token. */
  timeLeft(): number | null;
  /** Fetches a new token now; concurrent calls share one fetch. Rejects when that fetch fails. */
  refresh(): Promise<void>;
  /** Re-reads the clocks and refreshes at once if a refresh is due; called on wake signals. */
  wake(): void;
  subscribe(listener: (event: TokenSessionEvent) => void): () => void;
  /** Cancels every timer and listener; a fetch still in flight is ignored when it lands. */
  stop(): void;
}

/** A gap between the wall clock and the monotonic clock smaller than this is jitter, not sleep. */
const SUSPEND_TOLERANCE_MS = 2_000;
const DEFAULT_HEARTBEAT_MS = 15_000;

/**
 * Creates a token session: fetches a token, schedules the next fetch from the lifetime the server gave, retries
 * failures with capped backoff for as long as it takes, and catches up at once after sleep or a hidden tab.
 *
 * @example
 * const session = createTokenSession({ fetchToken, clock: browserClock() });
 * session.subscribe((event) => {
 *   if (event.type === "token") frame.contentWindow?.postMessage({ type: "host-session-token", token: event.token }, origin);
 * });
 * session.start();
 */
export function createTokenSession(options: TokenSessionOptions): TokenSession {
  const { fetchToken, clock } = options;
  const marginMs = options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
  const retry = options.retry ?? DEFAULT_RETRY;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const listeners = new Set<(event: TokenSessionEvent) => void>();

  let current: string | undefined;
  let deadline: number | undefined;
  /** When the next fetch should start (the refresh point, or the next retry). */
  let dueAt: number | undefined;
  let failures = 0;
  let inFlight: Promise<void> | undefined;
  let dueTimer: TimerHandle | undefined;
  let heartbeatTimer: TimerHandle | undefined;
  let stopWake: (() => void) | undefined;
  let started = false;
  let stopped = false;
  let lastMono = clock.now();
  let lastWall = clock.wallNow?.();

  const emit = (event: TokenSessionEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  const scheduleAt = (at: number) => {
    dueAt = at;
    if (dueTimer !== undefined) clock.clearTimeout(dueTimer);
    dueTimer = clock.setTimeout(
      () => {
        dueTimer = undefined;
        check();
      },
      Math.max(0, at - clock.now()),
    );
  };

  const fetchOnce = async (): Promise<void> => {
    // Counted from the request's start: the server started the lifetime no earlier, so the deadline is never late.
    const startedAt = clock.now();
    let fresh: ReturnType<typeof checkIframeToken>;
    try {
      fresh = checkIframeToken(await fetchToken());
    } catch (error) {
      if (stopped) throw error;
      failures += 1;
      scheduleAt(clock.now() + retryDelay(failures, retry));
      emit({ type: "failed", error, attempt: failures });
      throw error;
    }
    if (stopped) return;
    const lapsed = deadline !== undefined && clock.now() >= deadline;
    const lifetimeMs = fresh.expiresIn * 1000;
    failures = 0;
    current = fresh.token;
    deadline = startedAt + lifetimeMs;
    scheduleAt(startedAt + refreshDelay(lifetimeMs, marginMs));
    emit({ type: "token", token: fresh.token, expiresIn: fresh.expiresIn, lapsed });
  };

  const refresh = (): Promise<void> => {
    if (stopped) return Promise.reject(new Error("The token session was stopped."));
    inFlight ??= fetchOnce().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  /** Moves the deadline closer by the time the wall clock counted and the monotonic clock did not. */
  const correctForSuspend = () => {
    const mono = clock.now();
    const wall = clock.wallNow?.();
    if (wall !== undefined && lastWall !== undefined) {
      // A wall clock set forward only makes the refresh early; one set back is ignored (never a later refresh).
      const uncounted = wall - lastWall - (mono - lastMono);
      if (uncounted > SUSPEND_TOLERANCE_MS && deadline !== undefined) {
        deadline -= uncounted;
        if (dueAt !== undefined) scheduleAt(dueAt - uncounted);
        emit({ type: "adjusted" });
      }
    }
    lastMono = mono;
    lastWall = wall;
  };

  const check = () => {
    if (stopped) return;
    correctForSuspend();
    if (inFlight === undefined && dueAt !== undefined && clock.now() >= dueAt) refresh().catch(ignore);
  };

  const wake = () => {
    if (stopped) return;
    // Coming back (online, tab shown) is the best moment to retry: do not sit out the rest of a backoff.
    if (failures > 0 && inFlight === undefined) dueAt = clock.now();
    check();
  };

  const heartbeat = () => {
    heartbeatTimer = clock.setTimeout(() => {
      check();
      heartbeat();
    }, heartbeatMs);
  };

  return {
    start() {
      if (started || stopped) return;
      started = true;
      stopWake = options.listenForWake?.(wake);
      heartbeat();
      refresh().catch(ignore);
    },
    token: () => (deadline !== undefined && clock.now() < deadline ? current : undefined),
    timeLeft: () => (deadline === undefined ? null : Math.max(0, deadline - clock.now())),
    refresh,
    wake,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      if (dueTimer !== undefined) clock.clearTimeout(dueTimer);
      if (heartbeatTimer !== undefined) clock.clearTimeout(heartbeatTimer);
      stopWake?.();
      listeners.clear();
    },
  };
}

const ignore = () => {};
