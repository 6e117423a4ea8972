import type { SessionStore } from "./session-store";
import { formatTimeLeft, TIME_LEFT_WARNING_MS } from "./time-left";
import { useTimeLeft } from "./use-time-left";

/**
 * The time the session has left, shown once it is under five minutes, so the user can finish or ask their system
 * for a fresh session before the page closes. The live region is always in the page (empty until then), because
 * screen readers announce changes only to regions that already exist.
 */
export function TimeLeftBanner({ store }: { store: SessionStore }) {
  const left = useTimeLeft(store);
  return (
    <div class="time-left-region" role="status">
      {left < TIME_LEFT_WARNING_MS && (
        <p class="time-left">
          Session time left: <span class="time-left__clock">{formatTimeLeft(left)}</span>
        </p>
      )}
    </div>
  );
}
