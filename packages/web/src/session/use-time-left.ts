import { useEffect, useState } from "preact/hooks";
import type { SessionStore } from "./session-store";
import { timeLeft } from "./time-left";

/** The session's time left in milliseconds, updated every second and whenever the token is replaced. */
export function useTimeLeft(store: SessionStore): number {
  const [left, setLeft] = useState(() => timeLeft(store));
  useEffect(() => {
    const update = () => setLeft(timeLeft(store));
    const timer = window.setInterval(update, 1000);
    const unsubscribe = store.subscribe(update);
    return () => {
      window.clearInterval(timer);
      unsubscribe();
    };
  }, [store]);
  return left;
}
