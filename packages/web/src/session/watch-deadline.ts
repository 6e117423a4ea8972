import type { SessionStore } from "./session-store";
import { timeLeft } from "./time-left";

/**
 * Calls `onEnded` once when the session's deadline passes (checked every second; a token the host refreshes in
 * time moves the deadline). Returns the function that stops watching.
 */
export function watchDeadline(store: SessionStore, onEnded: () => void): () => void {
  const timer = window.setInterval(() => {
    if (timeLeft(store) > 0) return;
    window.clearInterval(timer);
    onEnded();
  }, 1000);
  return () => window.clearInterval(timer);
}
