import type { SessionStore } from "./session-store";

/** Below this, the page shows the time its session has left. */
export const TIME_LEFT_WARNING_MS = 5 * 60 * 1000;

/** Milliseconds the session has left (0 once it has ended). */
export function timeLeft(store: SessionStore, now = performance.now()): number {
  return Math.max(0, store.get().deadline - now);
}

/**
 * Minutes and seconds as `mm:ss`, rounded up so that the display reaches `00:00` only when the session has ended.
 *
 * @example formatTimeLeft(299_001) // "05:00"
 * @example formatTimeLeft(61_000) // "01:01"
 */
export function formatTimeLeft(milliseconds: number): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}
