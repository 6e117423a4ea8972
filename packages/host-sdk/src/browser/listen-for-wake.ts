/** The parts of `window` and `document` that announce a possible return from sleep. */
export interface WakeSources {
  window: Pick<Window, "addEventListener" | "removeEventListener">;
  document: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
}

/**
 * Calls `onWake` when the page may have missed time: the tab became visible (background tabs get their timers
 * delayed or frozen), the browser came back online (a refresh may have failed meanwhile), or the page was restored
 * from the back/forward cache. Returns the function that stops listening.
 *
 * @example
 * const stop = listenForWake({ window, document }, () => session.wake());
 */
export function listenForWake(sources: WakeSources, onWake: () => void): () => void {
  const onVisibility = () => {
    if (sources.document.visibilityState === "visible") onWake();
  };
  sources.document.addEventListener("visibilitychange", onVisibility);
  sources.window.addEventListener("online", onWake);
  sources.window.addEventListener("pageshow", onWake);
  return () => {
    sources.document.removeEventListener("visibilitychange", onVisibility);
    sources.window.removeEventListener("online", onWake);
    sources.window.removeEventListener("pageshow", onWake);
  };
}
